/// Converts OpenTelemetry metric names and units to Prometheus names, as the OpenTelemetry
/// Prometheus exporter does: `http.server.request.duration` in `s` becomes
/// `http_server_request_duration_seconds`.
public enum MetricName {
    /// `name` with every character outside `[a-zA-Z0-9_:]` turned into `_`, followed by the unit's
    /// Prometheus word unless the name already ends with it. Units in braces (`{request}`) and `1`
    /// add nothing.
    public static func prometheus(_ name: String, unit: String = "") -> String {
        var converted = String(name.unicodeScalars.map { scalar -> Character in
            let keep = ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
                || ("0"..."9").contains(scalar) || scalar == "_" || scalar == ":"
            return keep ? Character(scalar) : "_"
        })
        if let first = converted.unicodeScalars.first, ("0"..."9").contains(first) { converted = "_" + converted }
        let word = unitWord(unit)
        if !word.isEmpty, !converted.hasSuffix("_" + word) { converted += "_" + word }
        return converted
    }

    private static func unitWord(_ unit: String) -> String {
        switch unit {
        case "", "1": ""
        case "s": "seconds"
        case "ms": "milliseconds"
        case "us": "microseconds"
        case "ns": "nanoseconds"
        case "By": "bytes"
        case "KiBy": "kibibytes"
        case "MiBy": "mebibytes"
        case "%": "percent"
        default: unit.hasPrefix("{") ? "" : unit
        }
    }
}
