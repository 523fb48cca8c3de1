//! The small sets and maps of the checks' bookkeeping (keys seen so far, hosts already listed,
//! catalog keys by name).
//!
//! A manifest's lists are short, so a vector searched linearly beats hashing every item and
//! allocating a table on every run. Past [`SMALL`] items the contents move to a hash map, so that
//! a hostile list with thousands of items still costs linear time rather than quadratic.

use std::collections::HashMap;
use std::hash::Hash;

/// The most items kept in the linearly searched vector.
const SMALL: usize = 16;

/// A map that keeps the first value inserted for each key.
#[derive(Debug, Clone)]
pub(crate) struct FirstMap<K, V> {
    small: Vec<(K, V)>,
    /// Everything, once there are more than [`SMALL`] keys; empty until then.
    large: HashMap<K, V>,
}

impl<K: Copy + Eq + Hash, V> FirstMap<K, V> {
    /// An empty map; allocates nothing until the first insertion.
    pub fn new() -> Self {
        FirstMap {
            small: Vec::new(),
            large: HashMap::new(),
        }
    }

    /// The value of `key`.
    pub fn get(&self, key: K) -> Option<&V> {
        if self.large.is_empty() {
            self.small.iter().find(|(k, _)| *k == key).map(|(_, v)| v)
        } else {
            self.large.get(&key)
        }
    }

    /// Whether the map has `key`.
    pub fn contains_key(&self, key: K) -> bool {
        self.get(key).is_some()
    }

    /// Adds `key` with `value` unless the key is already there (whose value is then kept).
    /// Returns whether the key was new.
    pub fn insert_first(&mut self, key: K, value: V) -> bool {
        if self.large.is_empty() {
            if self.small.iter().any(|(k, _)| *k == key) {
                return false;
            }
            if self.small.len() < SMALL {
                self.small.push((key, value));
                return true;
            }
            self.large = self.small.drain(..).collect();
        }
        match self.large.entry(key) {
            std::collections::hash_map::Entry::Occupied(_) => false,
            std::collections::hash_map::Entry::Vacant(slot) => {
                slot.insert(value);
                true
            }
        }
    }

    /// The number of keys.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.small.len() + self.large.len()
    }
}

/// A set of the values seen so far: [`FirstMap`] without values.
#[derive(Debug, Clone)]
pub(crate) struct Seen<K>(FirstMap<K, ()>);

impl<K: Copy + Eq + Hash> Seen<K> {
    /// An empty set; allocates nothing until the first insertion.
    pub fn new() -> Self {
        Seen(FirstMap::new())
    }

    /// Adds a value; false when it was already there (as `HashSet::insert`).
    pub fn insert(&mut self, value: K) -> bool {
        self.0.insert_first(value, ())
    }

    /// Whether the set has `value`.
    pub fn contains(&self, value: K) -> bool {
        self.0.contains_key(value)
    }
}

impl<K: Copy + Eq + Hash> FromIterator<K> for Seen<K> {
    fn from_iter<I: IntoIterator<Item = K>>(iter: I) -> Self {
        let mut set = Seen::new();
        for value in iter {
            set.insert(value);
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_first_value_before_and_after_growing() {
        let mut map = FirstMap::new();
        for i in 0..40u32 {
            assert!(map.insert_first(i, i), "{i}");
        }
        for i in 0..100u32 {
            assert!(!map.insert_first(i % 40, 1000));
        }
        assert_eq!(map.len(), 40);
        for k in 0..40u32 {
            assert_eq!(map.get(k), Some(&k));
        }
        assert_eq!(map.get(40), None);
    }

    #[test]
    fn sets_answer_like_hash_sets() {
        let mut seen: Seen<&str> = ["a", "b", "a"].into_iter().collect();
        assert!(seen.contains("a"));
        assert!(!seen.insert("b"));
        assert!(seen.insert("c"));
        let names: Vec<String> = (0..50).map(|i| format!("n{i}")).collect();
        for n in &names {
            assert!(seen.insert(n));
        }
        assert!(names.iter().all(|n| seen.contains(n) && !seen.insert(n)));
        assert!(seen.contains("c") && !seen.contains("z"));
    }
}
