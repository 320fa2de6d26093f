import Foundation
import Observability
import Testing

@Suite("Metrics registry")
struct MetricsRegistryTests {
    @Test("Counters render with HELP, TYPE, sorted and escaped labels, and _total")
    func counters() {
        let registry = MetricsRegistry()
        let accepted = registry.counter("menurank_events_accepted", help: "Events stored.", labels: ["app": "mail"])
        registry.counter("menurank_events_accepted_total", help: "Events stored.", labels: ["app": "notes"])
            .increment(by: 2)
        let odd = registry.counter("menurank_events_rejected", help: "Events refused,\nby code \\ reason.",
                                   labels: ["reason": "bad \"id\"\\\n", "code": "invalid_id"])
        accepted.increment()
        accepted.increment(by: 4)
        odd.increment()
        #expect(registry.render() == """
            # HELP menurank_events_accepted_total Events stored.
            # TYPE menurank_events_accepted_total counter
            menurank_events_accepted_total{app="mail"} 5
            menurank_events_accepted_total{app="notes"} 2
            # HELP menurank_events_rejected_total Events refused,\\nby code \\\\ reason.
            # TYPE menurank_events_rejected_total counter
            menurank_events_rejected_total{code="invalid_id",reason="bad \\"id\\"\\\\\\n"} 1

            """)
    }

    @Test("Registering a series again returns the same handle, whatever the label order")
    func sameHandle() {
        let registry = MetricsRegistry()
        let first = registry.counter("hits", help: "Hits.", labels: ["a": "1", "b": "2"])
        let second = registry.counter("hits", help: "Hits.", labels: ["b": "2", "a": "1"])
        first.increment()
        second.increment()
        #expect(first === second)
        #expect(first.value == 2)
    }

    @Test("Gauges go up and down and render whole numbers without a fraction")
    func gauges() {
        let registry = MetricsRegistry()
        let open = registry.gauge("menurank_db_connections_open", help: "Open connections.", labels: ["pool": "ingest"])
        open.set(4)
        open.increment()
        open.decrement(by: 2)
        let ratio = registry.gauge("menurank_cache_hit_ratio", help: "Share of hits.")
        ratio.set(0.875)
        #expect(open.value == 3)
        #expect(registry.render() == """
            # HELP menurank_cache_hit_ratio Share of hits.
            # TYPE menurank_cache_hit_ratio gauge
            menurank_cache_hit_ratio 0.875
            # HELP menurank_db_connections_open Open connections.
            # TYPE menurank_db_connections_open gauge
            menurank_db_connections_open{pool="ingest"} 3

            """)
    }

    @Test("Histograms render cumulative buckets, sum and count per label set")
    func histograms() {
        let registry = MetricsRegistry()
        let name = MetricName.prometheus("http.server.request.duration", unit: "s")
        let events = registry.histogram(name, help: "Duration of HTTP server requests.",
                                        labels: ["http_route": "/v1/events"], buckets: [0.01, 0.1, 1])
        let menus = registry.histogram(name, help: "Duration of HTTP server requests.",
                                       labels: ["http_route": "/v1/menus/{element_type}"], buckets: [0.01, 0.1, 1])
        events.observe(0.005)
        events.observe(0.01)
        events.observe(.milliseconds(250))
        events.observe(3)
        menus.observe(0.05)
        #expect(registry.render() == """
            # HELP http_server_request_duration_seconds Duration of HTTP server requests.
            # TYPE http_server_request_duration_seconds histogram
            http_server_request_duration_seconds_bucket{http_route="/v1/events",le="0.01"} 2
            http_server_request_duration_seconds_bucket{http_route="/v1/events",le="0.1"} 2
            http_server_request_duration_seconds_bucket{http_route="/v1/events",le="1"} 3
            http_server_request_duration_seconds_bucket{http_route="/v1/events",le="+Inf"} 4
            http_server_request_duration_seconds_sum{http_route="/v1/events"} 3.265
            http_server_request_duration_seconds_count{http_route="/v1/events"} 4
            http_server_request_duration_seconds_bucket{http_route="/v1/menus/{element_type}",le="0.01"} 0
            http_server_request_duration_seconds_bucket{http_route="/v1/menus/{element_type}",le="0.1"} 1
            http_server_request_duration_seconds_bucket{http_route="/v1/menus/{element_type}",le="1"} 1
            http_server_request_duration_seconds_bucket{http_route="/v1/menus/{element_type}",le="+Inf"} 1
            http_server_request_duration_seconds_sum{http_route="/v1/menus/{element_type}"} 0.05
            http_server_request_duration_seconds_count{http_route="/v1/menus/{element_type}"} 1

            """)
    }

    @Test("The HTTP server metric uses OpenTelemetry label names and bounds unknown methods")
    func httpServerMetrics() {
        let registry = MetricsRegistry()
        let metrics = HTTPServerMetrics(registry: registry)
        metrics.record(method: "POST", route: "/v1/events", status: 200, duration: .milliseconds(20))
        metrics.record(method: "BREW", route: "/v1/events", status: 405, duration: .milliseconds(1))
        let text = registry.render()
        #expect(HTTPServerMetrics.name == "http_server_request_duration_seconds")
        #expect(text.contains(
            "http_server_request_duration_seconds_count{http_request_method=\"POST\",http_response_status_code=\"200\",http_route=\"/v1/events\"} 1\n"))
        #expect(text.contains(
            "http_server_request_duration_seconds_count{http_request_method=\"_OTHER\",http_response_status_code=\"405\",http_route=\"/v1/events\"} 1\n"))
        #expect(text.contains("le=\"0.005\"} 0\n"))
    }

    @Test("OpenTelemetry names convert to Prometheus names", arguments: [
        ("http.server.request.duration", "s", "http_server_request_duration_seconds"),
        ("menurank.ingest.batch.size", "{event}", "menurank_ingest_batch_size"),
        ("db.client.connection.count", "1", "db_client_connection_count"),
        ("http.server.request.body.size", "By", "http_server_request_body_size_bytes"),
        ("already_seconds", "s", "already_seconds"),
        ("9lives", "", "_9lives"),
    ])
    func names(otel: String, unit: String, expected: String) {
        #expect(MetricName.prometheus(otel, unit: unit) == expected)
    }

    @Test("Concurrent updates are all counted")
    func concurrentUpdates() {
        let registry = MetricsRegistry()
        let counter = registry.counter("work", help: "Work.")
        let histogram = registry.histogram("latency_seconds", help: "Latency.", buckets: [0.5])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for index in 0..<10_000 {
                counter.increment()
                histogram.observe(index % 2 == 0 ? 0.25 : 1)
            }
        }
        #expect(counter.value == 80_000)
        let snapshot = histogram.snapshot
        #expect(snapshot.cumulativeCounts == [40_000, 80_000])
        #expect(snapshot.sum == 50_000)
    }
}
