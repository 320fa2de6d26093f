import Ingest
import Testing

@Suite struct RateLimiterTests {
    @Test func bucketAllowsBurstThenRefillsAtTheRate() {
        var bucket = TokenBucket(rate: 2, burst: 3, now: 0)
        #expect(bucket.take(now: 0) == nil)
        #expect(bucket.take(now: 0) == nil)
        #expect(bucket.take(now: 0) == nil)
        let wait = bucket.take(now: 0)
        #expect(wait == 0.5)
        // Half a second later one token is back.
        #expect(bucket.take(now: 0.5) == nil)
        #expect(bucket.take(now: 0.5) != nil)
        // Idle for long: full again, never above the burst.
        #expect(bucket.isFull(now: 100))
        var full = bucket
        for _ in 0..<3 { #expect(full.take(now: 100) == nil) }
        #expect(full.take(now: 100) != nil)
    }

    @Test func limiterKeepsOneBucketPerKeyAndRoundsRetryAfterUp() {
        final class Clock: @unchecked Sendable { var now = 0.0 }
        let clock = Clock()
        let limiter = RateLimiter(rate: 0.5, burst: 1, clock: { clock.now })
        #expect(limiter.admit(key: "a") == nil)
        #expect(limiter.admit(key: "a") == 2)
        #expect(limiter.admit(key: "b") == nil)
        clock.now = 1.5
        #expect(limiter.admit(key: "a") == 1)
        clock.now = 2
        #expect(limiter.admit(key: "a") == nil)
        let off = RateLimiter(rate: 0, burst: 1)
        for _ in 0..<100 { #expect(off.admit(key: "a") == nil) }
    }

    /// Memory stays bounded: keys beyond the capacity, while the held buckets are in use, share one
    /// overflow bucket; once the held ones are idle (full again) they are forgotten.
    @Test func keysBeyondTheCapacityShareOneBucket() {
        final class Clock: @unchecked Sendable { var now = 0.0 }
        let clock = Clock()
        let limiter = RateLimiter(rate: 0.5, burst: 1, capacity: 2, clock: { clock.now })
        #expect(limiter.admit(key: "a") == nil)
        #expect(limiter.admit(key: "b") == nil)
        #expect(limiter.admit(key: "c") == nil)
        #expect(limiter.admit(key: "d") == 2, "c and d share the overflow bucket")
        #expect(limiter.admit(key: "a") == 2, "a keeps its own bucket")
        clock.now = 10
        #expect(limiter.admit(key: "c") == nil)
        #expect(limiter.admit(key: "d") == nil, "after the idle buckets went, d has one of its own")
        #expect(limiter.admit(key: "d") == 2)
    }
}
