#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 or IPv6 socket address parsed from a numeric host (no name resolution).
struct SocketAddress {
    private enum Storage {
        case v4(sockaddr_in)
        case v6(sockaddr_in6)
    }

    private let storage: Storage

    init(host: String, port: UInt16) throws(HTTPError) {
        if host.contains(":") {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            guard inet_pton(AF_INET6, host, &address.sin6_addr) == 1 else {
                throw HTTPError(.invalidConfiguration, "host \(host) is not an IP address")
            }
            storage = .v6(address)
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
                throw HTTPError(.invalidConfiguration, "host \(host) is not an IP address")
            }
            storage = .v4(address)
        }
    }

    var isIPv6: Bool {
        if case .v6 = storage { return true }
        return false
    }

    var family: Int32 {
        isIPv6 ? AF_INET6 : AF_INET
    }

    func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        switch storage {
        case var .v4(address):
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        case var .v6(address):
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        }
    }
}
