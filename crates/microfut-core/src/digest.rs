//! SHA-256 in lowercase hex: revision fingerprints, seals, the servers' token digests and store
//! digests are all written this way, so it is written once (hex by the `hex` crate).

use sha2::{Digest, Sha256};

/// The SHA-256 of `bytes` in lowercase hex (64 characters). The servers keep only this of a
/// token and check every write against it.
pub fn sha256_hex(bytes: impl AsRef<[u8]>) -> String {
    hex::encode(Sha256::digest(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// FIPS 180-2's examples, and a byte string that is not text.
    #[test]
    fn known_digests() {
        assert_eq!(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
        assert_eq!(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assert_eq!(sha256_hex([0u8, 255]), "06eb7d6a69ee19e5fbdf749018d3d2abfa04bcbd1365db312eb86dc7169389b8");
    }
}
