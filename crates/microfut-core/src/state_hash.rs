//! The hash every game's records store of its state: a word-wise xor-multiply hash, stable across
//! platforms and Rust versions (std's hasher is neither, and `Hash` impls may change).
//!
//! For each 64-bit word `w` of input: `h = rotate_left((h ^ w) * P, R)` (wrapping), starting from
//! `h = B`, where `B = 0xcbf2_9ce4_8422_2325` and `P = 0x0000_0100_0000_01b3` are FNV-1a's 64-bit
//! offset basis and prime. It is *not* FNV-1a: FNV-1a feeds one byte at a time, this feeds whole
//! words (a round's state is a few hundred of them, and hashing it runs after every round), and
//! the rotated variant also turns the word after the multiply so high bits reach low ones.
//!
//! Two variants exist because records were written with both and must replay bit for bit:
//! - [`XorMulRot29`] (`R = 29`): the match engine's state after every round, World 1's combat
//!   state (tests/runs/*, golden matches, World 1 records);
//! - [`XorMul`] (`R = 0`, no rotation): Space Football's board (`Board::hash64`, which Space's
//!   records and positions store).
//!
//! The golden vectors in the tests below freeze both; a change that moves them breaks replays.

/// The word hash with a rotation of `ROTATE` bits after each multiply. Use the named variants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WordHash<const ROTATE: u32>(u64);

/// xor, multiply, rotate left 29: the match engine's and World 1's state hash.
pub type XorMulRot29 = WordHash<29>;

/// xor, multiply (no rotation): Space Football's board hash.
pub type XorMul = WordHash<0>;

const OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
const PRIME: u64 = 0x0000_0100_0000_01b3;

impl<const ROTATE: u32> WordHash<ROTATE> {
    pub const fn new() -> Self {
        WordHash(OFFSET_BASIS)
    }

    pub fn u64(&mut self, word: u64) {
        self.0 = (self.0 ^ word).wrapping_mul(PRIME).rotate_left(ROTATE);
    }

    /// A float by its bits, except that +0.0 and −0.0 are one word (the same position).
    pub fn f64(&mut self, v: f64) {
        self.u64(if v == 0.0 { 0 } else { v.to_bits() });
    }

    /// Text as its length in bytes, then its UTF-8 in little-endian words, the last one padded
    /// with zero bytes (the length keeps `"a"` and `"a\0"` apart).
    pub fn str(&mut self, s: &str) {
        self.u64(s.len() as u64);
        for chunk in s.as_bytes().chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            self.u64(u64::from_le_bytes(w));
        }
    }

    pub const fn finish(&self) -> u64 {
        self.0
    }
}

impl<const ROTATE: u32> Default for WordHash<ROTATE> {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rot29(words: &[u64]) -> u64 {
        let mut h = XorMulRot29::new();
        words.iter().for_each(|&w| h.u64(w));
        h.finish()
    }

    fn plain(words: &[u64]) -> u64 {
        let mut h = XorMul::new();
        words.iter().for_each(|&w| h.u64(w));
        h.finish()
    }

    /// Golden vectors: records store these hashes, so these numbers may never change.
    #[test]
    fn golden_vectors() {
        assert_eq!(rot29(&[]), 0xcbf2_9ce4_8422_2325);
        assert_eq!(plain(&[]), 0xcbf2_9ce4_8422_2325);
        assert_eq!(rot29(&[0]), 0x90c0_36fb_f5ec_77a9);
        assert_eq!(plain(&[0]), 0xaf63_bd4c_8601_b7df);
        assert_eq!(rot29(&[1, 2, 3]), 0x1370_188f_86d2_481f);
        assert_eq!(plain(&[1, 2, 3]), 0xd0aa_6218_672c_f5ab);
        assert_eq!(rot29(&[u64::MAX, 0x0123_4567_89ab_cdef]), 0x2243_d5f7_7a59_522a);
        assert_eq!(plain(&[u64::MAX, 0x0123_4567_89ab_cdef]), 0x3d20_b6d4_615c_0c33);
        let mut h = XorMulRot29::new();
        h.f64(1.5);
        h.f64(-0.0);
        h.str("card:fireball");
        assert_eq!(h.finish(), 0x288e_681e_3c4f_9de4);
    }

    /// The step, written out, for one word: what the module's documentation says it computes.
    #[test]
    fn one_step_is_xor_multiply_rotate() {
        let w = 0x0123_4567_89ab_cdef_u64;
        let step = (0xcbf2_9ce4_8422_2325_u64 ^ w).wrapping_mul(0x0000_0100_0000_01b3);
        assert_eq!(plain(&[w]), step);
        assert_eq!(rot29(&[w]), step.rotate_left(29));
    }

    /// Not FNV-1a: FNV-1a of the word's eight bytes is another number.
    #[test]
    fn is_not_bytewise_fnv1a() {
        let w = 0x0123_4567_89ab_cdef_u64;
        let fnv1a = w
            .to_le_bytes()
            .iter()
            .fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3));
        assert_ne!(plain(&[w]), fnv1a);
    }

    #[test]
    fn signed_zeros_are_one_word_and_text_is_length_prefixed() {
        let (mut a, mut b) = (XorMulRot29::new(), XorMulRot29::new());
        a.f64(0.0);
        b.f64(-0.0);
        assert_eq!(a, b);
        let (mut a, mut b) = (XorMulRot29::new(), XorMulRot29::new());
        a.str("a");
        b.str("a\0");
        assert_ne!(a, b);
        let mut c = XorMulRot29::new();
        c.u64(1);
        c.u64(u64::from(b'a'));
        assert_eq!(a, c, "\"a\" is its length, then one padded word");
    }
}
