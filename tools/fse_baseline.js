// Baseline for the match benchmark: the npm `footballsimulationengine` (5.0.0) playing one
// match of as many iterations as a Microfut match has rounds (90 min / 2 s = 2,700), with its
// own sample teams. Not part of the build or CI; run by hand beside `cargo bench --bench matchday`:
//
//   mkdir -p /tmp/fse && cd /tmp/fse && npm install footballsimulationengine@5.0.0
//   QUIET=1 node /path/to/microfut/tools/fse_baseline.js [iterations_per_half] [matches] 2>/dev/null
//
// QUIET=1 silences the engine's per-iteration console.log; its warnings go to stderr. The
// engine (5.0.0) sometimes throws inside an iteration (e.g. a TypeError in setFoul); such an
// iteration is counted in `errors` and the match goes on from the previous state.
'use strict';
if (process.env.QUIET) console.log = () => {};
const write = (s) => process.stdout.write(s + '\n');
const path = require('path');
const fs = require('fs');
const enginePath = require.resolve('footballsimulationengine', { paths: [process.cwd()] });
const engine = require(enginePath);
const dir = path.join(path.dirname(enginePath), 'init_config');
const read = (f) => JSON.parse(fs.readFileSync(path.join(dir, f)));
const perHalf = parseInt(process.argv[2] || '1350', 10);
const matches = parseInt(process.argv[3] || '1', 10);

(async () => {
  const t0 = process.hrtime.bigint();
  const goals = [];
  let errors = 0;
  for (let m = 0; m < matches; m++) {
    let md = await engine.initiateGame(read('team1.json'), read('team2.json'), read('pitch.json'));
    for (let half = 0; half < 2; half++) {
      if (half === 1) md = await engine.startSecondHalf(md);
      for (let i = 0; i < perHalf; i++) {
        try {
          md = await engine.playIteration(md);
        } catch (e) {
          errors++;
        }
      }
    }
    goals.push([md.kickOffTeamStatistics.goals, md.secondTeamStatistics.goals]);
  }
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  write(JSON.stringify({ iterations_per_half: perHalf, matches, ms_per_match: ms / matches,
    ms_per_iteration: ms / matches / (2 * perHalf), goals, errors }));
})();
