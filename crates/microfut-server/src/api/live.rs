//! Live objects (matches, journeys) kept in memory by id, the least recently used evicted once
//! over a cap — but only one nobody holds: evicting a slot still in use would let a second copy be
//! rebuilt from the store beside it, two writers for one run.

use std::collections::HashMap;
use std::sync::Arc;

pub struct LiveCache<S> {
    slots: HashMap<String, (Arc<S>, u64)>,
    tick: u64,
    cap: usize,
}

impl<S> LiveCache<S> {
    pub fn new(cap: usize) -> Self {
        LiveCache { slots: HashMap::new(), tick: 0, cap }
    }

    fn next(&mut self) -> u64 {
        self.tick += 1;
        self.tick
    }

    /// The slot of `id`, marked as just used.
    pub fn get(&mut self, id: &str) -> Option<Arc<S>> {
        let tick = self.next();
        self.slots.get_mut(id).map(|(s, t)| {
            *t = tick;
            s.clone()
        })
    }

    /// The slot of `id`, made by `new` when there is none, marked as just used.
    pub fn get_or_insert_with(&mut self, id: &str, new: impl FnOnce() -> S) -> Arc<S> {
        if let Some(s) = self.get(id) {
            return s;
        }
        let s = Arc::new(new());
        self.insert(id, s.clone());
        s
    }

    pub fn insert(&mut self, id: &str, slot: Arc<S>) {
        let tick = self.next();
        self.slots.insert(id.to_string(), (slot, tick));
        if self.slots.len() > self.cap {
            let mut by_age: Vec<(u64, String)> = self.slots.iter().map(|(k, (_, t))| (*t, k.clone())).collect();
            by_age.sort();
            let excess = self.slots.len() - self.cap;
            for (_, k) in by_age.into_iter().take(excess) {
                // Held by nobody but the cache: no guard (each holds a clone of the Arc) and no
                // request between taking the slot and locking it.
                if self.slots.get(&k).is_some_and(|(s, _)| Arc::strong_count(s) == 1) {
                    self.slots.remove(&k);
                }
            }
        }
    }

    pub fn remove(&mut self, id: &str) {
        self.slots.remove(id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids<S>(c: &LiveCache<S>) -> Vec<&str> {
        let mut v: Vec<&str> = c.slots.keys().map(String::as_str).collect();
        v.sort();
        v
    }

    #[test]
    fn a_held_slot_is_never_evicted_and_idle_ones_go_oldest_first() {
        let mut c: LiveCache<u32> = LiveCache::new(2);
        let held = c.get_or_insert_with("a", || 1);
        c.insert("b", Arc::new(2));
        c.insert("c", Arc::new(3));
        assert_eq!(ids(&c), ["a", "b", "c"], "the oldest is held: it stays, over the cap");
        drop(held);
        c.insert("d", Arc::new(4));
        assert_eq!(ids(&c), ["c", "d"]);
    }

    #[test]
    fn a_use_makes_a_slot_the_newest() {
        let mut c: LiveCache<u32> = LiveCache::new(2);
        c.insert("x", Arc::new(1));
        c.insert("y", Arc::new(2));
        c.get("x");
        c.insert("z", Arc::new(3));
        assert_eq!(ids(&c), ["x", "z"]);
    }
}
