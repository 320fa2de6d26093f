import Hashing
import Testing

@Suite("Hashing")
struct HashingTests {
    // FIPS 180-4 examples (and the NIST CAVS long message).
    @Test("SHA-256 vectors", arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
    ])
    func sha256(_ message: String, _ digest: String) {
        #expect(Hex.encode(SHA256.hash(message)) == digest)
    }

    @Test func sha256MillionAInChunks() {
        var h = SHA256()
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        for _ in 0..<1000 { h.update(chunk) }
        #expect(Hex.encode(h.finalize()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func sha256StreamingMatchesOneShot() {
        let message = (0..<300).map { UInt8(truncatingIfNeeded: $0 * 7) }
        for split in [0, 1, 55, 56, 63, 64, 65, 128, 299] {
            var h = SHA256()
            h.update(Array(message[..<split]))
            h.update(Array(message[split...]))
            #expect(h.finalize() == SHA256.hash(message), "split at \(split)")
        }
    }

    // RFC 4231 test cases 1, 2, 4 and 6.
    @Test func hmacSHA256() {
        let c1 = HMACSHA256.authenticationCode(for: Array("Hi There".utf8), key: [UInt8](repeating: 0x0b, count: 20))
        #expect(Hex.encode(c1) == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        let c2 = HMACSHA256.authenticationCode(for: Array("what do ya want for nothing?".utf8), key: Array("Jefe".utf8))
        #expect(Hex.encode(c2) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        let c4 = HMACSHA256.authenticationCode(for: [UInt8](repeating: 0xcd, count: 50), key: Array(1...25))
        #expect(Hex.encode(c4) == "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b")
        let c6 = HMACSHA256.authenticationCode(
            for: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
            key: [UInt8](repeating: 0xaa, count: 131))
        #expect(Hex.encode(c6) == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
        #expect(HMACSHA256.isValid(c2, for: Array("what do ya want for nothing?".utf8), key: Array("Jefe".utf8)))
        #expect(!HMACSHA256.isValid(c2, for: Array("what do ya want for nothing!".utf8), key: Array("Jefe".utf8)))
    }

    // Reference vectors of the SipHash paper's implementation: key 00..0f, message 00..(n-1).
    static let sipVectors: [(Int, UInt64)] = [
        (0, 0x726f_db47_dd0e_0e31), (1, 0x74f8_39c5_93dc_67fd), (2, 0x0d6c_8009_d9a9_4f5a), (3, 0x8567_6696_d7fb_7e2d),
        (4, 0xcf27_94e0_2771_87b7), (5, 0x1876_5564_cd99_a68d), (6, 0xcbc9_466e_58fe_e3ce), (7, 0xab02_00f5_8b01_d137),
        (8, 0x93f5_f579_9a93_2462), (9, 0x9e00_82df_0ba9_e4b0), (10, 0x7a5d_bbc5_94dd_b9f3), (11, 0xf4b3_2f46_226b_ada7),
        (12, 0x751e_8fbc_860e_e5fb), (13, 0x14ea_5627_c084_3d90), (14, 0xf723_ca90_8e7a_f2ee), (15, 0xa129_ca61_49be_45e5),
        (16, 0x3f2a_cc7f_57c2_9bdb), (24, 0xb8ad_50c6_f649_af94), (63, 0x958a_324c_eb06_4572),
    ]

    @Test("SipHash-2-4 vectors", arguments: sipVectors)
    func sipHash(_ length: Int, _ expected: UInt64) throws {
        let hasher = try #require(SipHash24(key: Array(0..<16)))
        #expect(hasher.hash(Array(0..<UInt8(length))) == expected)
    }

    @Test func sipHashKeyAndPseudonyms() throws {
        #expect(SipHash24(key: [1, 2, 3]) == nil)
        let hasher = try #require(SipHash24(key: Array(0..<16)))
        #expect(hasher == SipHash24(k0: 0x0706_0504_0302_0100, k1: 0x0f0e_0d0c_0b0a_0908))
        #expect(hasher.hash("abc") == hasher.hash(Array("abc".utf8)))
        let a = try #require(Pseudonymizer(secret: Array(0..<16)))
        let b = try #require(Pseudonymizer(secret: Array(1...16)))
        #expect(a.pseudonym("5d41402abc4b2a76") == a.pseudonym("5d41402abc4b2a76"))
        #expect(a.pseudonym("5d41402abc4b2a76") != b.pseudonym("5d41402abc4b2a76"))
        #expect(a.pseudonym("") == Int64(bitPattern: 0x726f_db47_dd0e_0e31))
        #expect(Pseudonymizer(secret: [0]) == nil)
        #expect(Pseudonymizer.makeSecret().count == 16)
    }

    @Test func constantTimeEquals() {
        #expect(ConstantTime.equals([1, 2, 3], [1, 2, 3]))
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2, 4]))
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2]))
        #expect(!ConstantTime.equals([], [0]))
        #expect(ConstantTime.equals([], []))
        #expect(ConstantTime.equals("secret", "secret"))
        #expect(!ConstantTime.equals("secret", "Secret"))
    }

    @Test func hex() {
        #expect(Hex.encode([0x00, 0xab, 0xff]) == "00abff")
        #expect(Hex.decode("00ABff") == [0x00, 0xab, 0xff])
        #expect(Hex.decode("abc") == nil)
        #expect(Hex.decode("zz") == nil)
    }

    @Test func randomTokens() {
        let a = SecureRandom.base62(count: 32)
        let b = SecureRandom.base62(count: 32)
        #expect(a.utf8.count == 32)
        #expect(a != b)
        #expect(a.utf8.allSatisfy { SecureRandom.base62Alphabet.contains($0) })
        #expect(SecureRandom.bytes(count: 5).count == 5)
        // Every character of the alphabet shows up in a long token (a biased or broken mapping would not).
        let long = Set(SecureRandom.base62(count: 4000).utf8)
        #expect(long.count == 62)
    }

    @Test func apiKeys() throws {
        let key = APIKey.generate(kind: .write)
        #expect(key.text.hasPrefix("mrk_w_"))
        #expect(key.text.utf8.count == 38)
        #expect(key.lookupPrefix.utf8.count == 14)
        #expect(key.text.hasPrefix(key.lookupPrefix))
        #expect(key.hash == Hex.encode(SHA256.hash(key.text)))
        #expect(key.matches(storedHash: key.hash))
        #expect(key.matches(storedHash: key.hash.uppercased()))
        #expect(!key.matches(storedHash: APIKey.generate(kind: .write).hash))
        #expect(!key.description.contains(key.text))
        let parsed = try #require(APIKey(parsing: key.text))
        #expect(parsed == key)
        #expect(APIKey.generate(kind: .read).text.hasPrefix("mrk_r_"))
        #expect(APIKey(parsing: "mrk_x_" + String(repeating: "a", count: 32)) == nil)
        #expect(APIKey(parsing: "mrk_w_" + String(repeating: "a", count: 31)) == nil)
        #expect(APIKey(parsing: "mrk_w_" + String(repeating: "a", count: 31) + "-") == nil)
        #expect(APIKey(parsing: "Bearer mrk_w_" + String(repeating: "a", count: 32)) == nil)
    }
}

/// Values computed with the hand-written SHA-256, HMAC and SipHash that libsodium replaced (before
/// the change, on the same inputs): keys created before the upgrade still authenticate, and stored
/// pseudonyms of users and sessions keep their values.
@Suite("Hashing: compatible with the values stored before libsodium")
struct HashingCompatibilityTests {
    static let secret: [UInt8] = (0..<16).map { UInt8($0) &* 17 &+ 3 }

    @Test func anAPIKeyCreatedBeforeStillMatchesItsStoredHash() throws {
        let key = try #require(APIKey(parsing: "mrk_w_Ab3dE9xZq1W2e3R4t5Y6u7I8o9P0aSdF"))
        let storedBefore = "cf8a510a181ba7df55664ed0caa5396c448d95d17770ffa8b5ab7cc58610ba2b"
        #expect(key.hash == storedBefore)
        #expect(key.matches(storedHash: storedBefore))
        #expect(key.matches(storedHash: storedBefore.uppercased()))
        #expect(!key.matches(storedHash: String(storedBefore.dropLast()) + "c"))
    }

    static let storedPseudonyms: [(String, Int64)] = [
        ("5d41402abc4b2a76", -8_868_450_292_284_019_655),
        ("user-1", -2_140_508_137_699_614_040),
        ("s-81", -8_417_912_865_841_801_094),
        ("Пользователь", 5_523_597_301_291_129_566),
        (String(repeating: "x", count: 256), 6_426_694_498_729_939_416),
    ]

    @Test("pseudonyms stored before", arguments: storedPseudonyms)
    func pseudonym(_ user: String, _ storedBefore: Int64) throws {
        let pseudonymizer = try #require(Pseudonymizer(secret: Self.secret))
        #expect(pseudonymizer.pseudonym(user) == storedBefore)
    }

    @Test func hmacAsBefore() {
        let code = HMACSHA256.authenticationCode(for: Array("menurank".utf8), key: Self.secret)
        #expect(Hex.encode(code) == "c0f27ad2d67eb1174588995612116bdcb8a4ea96894228c2491df12aa69ce66e")
    }
}
