// Shared helpers for the browser tests: Debian's chromium driven by playwright-core (a browser
// download does not work on CI machines, so the executable is the system one), a server of our
// own binary on a free loopback port, and a check that a screenshot is not blank.
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { PNG } from 'pngjs';

export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

// The flags keep chromium off the network (this machine's network is closed: background
// connections fail by the dozen) and let it run as root in a container.
export async function launch() {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
}

// Starts `microfut <args>` (e.g. ['serve', '--bind', '127.0.0.1:0', '--db', path]) and resolves
// with the base URL once the server prints "listening on http://…". The process is killed when
// the test process exits, whatever happens.
export function startServer(binary, args, { timeoutMs = 30000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    process.on('exit', () => { try { child.kill('SIGKILL'); } catch {} });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), timeoutMs);
    const onData = (chunk) => {
      out += chunk;
      const m = out.match(/listening on (http:\/\/[^\s]+)/);
      if (m) { clearTimeout(timer); resolve({ url: m[1].replace(/\/$/, ''), child }); }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`server exited ${code}: ${out}`)); });
  });
}

// A screenshot is blank when (almost) every pixel has one colour. Returns the number of distinct
// colours among a sample of pixels, and throws below `min`.
export function assertNotBlank(pngPath, min = 8) {
  const png = PNG.sync.read(readFileSync(pngPath));
  const colours = new Set();
  const step = Math.max(1, Math.floor((png.width * png.height) / 20000));
  for (let p = 0; p < png.width * png.height; p += step) {
    const i = p * 4;
    colours.add((png.data[i] << 16) | (png.data[i + 1] << 8) | png.data[i + 2]);
  }
  if (colours.size < min) throw new Error(`${pngPath} looks blank: ${colours.size} colours`);
  return colours.size;
}
