import Ranking
import Testing

/// Which events count (`SegmentFilter`): test events out by default, platforms by name, app
/// versions compared as numbers.
@Suite struct SegmentFilterTests {
    @Test(arguments: [
        ("4.10", "4.9"), ("4.2.1", "4.2"), ("10", "9.99"), ("5.2.1-beta", "5.2"), ("4.2.1 (1234)", "4.2.0.9"),
        ("2026.11.1", "2026.9.30"), ("123456789012345678901234567890", "123456789012345678901234567889"),
    ])
    func laterVersionsCompareAsNumbers(later: String, earlier: String) throws {
        let a = try #require(AppVersion(leadingNumbersOf: later))
        let b = try #require(AppVersion(leadingNumbersOf: earlier))
        #expect(a > b && b < a && a != b)
    }

    @Test func versionsReadTheirLeadingNumbersAndTrailingZerosDoNotCount() throws {
        #expect(AppVersion(leadingNumbersOf: "4.2") == AppVersion(leadingNumbersOf: "4.2.0"))
        #expect(AppVersion(leadingNumbersOf: "04.002") == AppVersion(leadingNumbersOf: "4.2"))
        #expect(AppVersion(leadingNumbersOf: "5.2.1-beta")?.description == "5.2.1")
        #expect(AppVersion(leadingNumbersOf: "4.2.")?.description == "4.2")
        #expect(AppVersion(leadingNumbersOf: "4..2")?.description == "4")
        for text in ["", "beta", "v4.2", " 4.2", ".4", "٤.٢"] { #expect(AppVersion(leadingNumbersOf: text) == nil, "\(text)") }
        // --min-app-version takes dotted numbers and nothing else.
        #expect(AppVersion(exactly: "4.2")?.description == "4.2")
        for text in ["4.2-beta", "4.", "4..2", "x", "", " 4.2"] { #expect(AppVersion(exactly: text) == nil, "\(text)") }
    }

    @Test func platformsAreNamedByTheirLeadingLetters() {
        #expect(SegmentFilter.platformName("iOS 18.1") == "ios")
        #expect(SegmentFilter.platformName("  Android14") == "android")
        #expect(SegmentFilter.platformName("macOS") == "macos")
        #expect(SegmentFilter.platformName("18.1") == "")
        #expect(SegmentFilter.platformName("") == "")
        #expect(SegmentFilter.isPlatformName("iOS") && !SegmentFilter.isPlatformName("iOS 18") && !SegmentFilter.isPlatformName(""))
    }

    @Test func theDefaultLeavesOutTestEventsOnly() {
        let filter = SegmentFilter.default
        #expect(filter.isDefault)
        #expect(filter.matches(isTest: false, platform: nil, appVersion: nil))
        #expect(filter.matches(isTest: false, platform: "iOS 18", appVersion: "1.0"))
        #expect(!filter.matches(isTest: true, platform: "iOS 18", appVersion: "1.0"))
        #expect(SegmentFilter(includeTest: true).matches(isTest: true, platform: nil, appVersion: nil))
        #expect(!SegmentFilter(includeTest: true).isDefault)
    }

    @Test func platformAndVersionFiltersNeedAMatchingContext() throws {
        let filter = SegmentFilter(platforms: ["ios", "ipados"], minAppVersion: try #require(AppVersion(exactly: "4.10")))
        #expect(filter.matches(isTest: false, platform: "iOS 18.1", appVersion: "4.10"))
        #expect(filter.matches(isTest: false, platform: "iPadOS 17", appVersion: "4.10.1"))
        #expect(filter.matches(isTest: false, platform: "ios", appVersion: "5"))
        #expect(!filter.matches(isTest: false, platform: "iOS 18.1", appVersion: "4.9"))
        #expect(!filter.matches(isTest: false, platform: "Android 14", appVersion: "4.10"))
        #expect(!filter.matches(isTest: false, platform: nil, appVersion: "4.10"))
        #expect(!filter.matches(isTest: false, platform: "iOS", appVersion: nil))
        #expect(!filter.matches(isTest: false, platform: "iOS", appVersion: "beta"))
        #expect(!filter.matches(isTest: true, platform: "iOS", appVersion: "5"))
    }
}
