import CivilTime
import HTTP
import Postgres
import Storage

extension IngestHandler {
    /// The review page and the admin API (`AdminEndpoint`), over the daemon's general pool.
    mutating func addAdminRoutes(pool: PostgresPool, tokens: AdminTokenGate, retryAfter: Int, clock: WallClock) {
        let admin = AdminEndpoint(
            authenticator: AdminAuthenticator(tokens: tokens, retryAfter: retryAfter),
            review: ProposalReview(pool: pool, clock: clock), menus: MenuReader(pool: pool),
            rolloutReview: RolloutReview(pool: pool, clock: clock),
            apps: AppStore(pool: pool), usageStore: UsageStore(pool: pool), layoutReview: LayoutReview(pool: pool),
            retryAfter: retryAfter, clock: clock)
        add("GET", "/admin") { _, _ in RequestOutcome(AdminPage.response) }
        add("GET", "/v1/admin/session") { request, _ in admin.session(request) }
        add("GET", "/v1/admin/proposals") { request, _ in admin.list(request) }
        add("GET", "/v1/admin/proposals/:id") { request, parameters in admin.show(request, id: parameters["id"]) }
        add("POST", "/v1/admin/proposals/:id") { request, parameters in admin.decide(request, id: parameters["id"]) }
        add("GET", "/v1/admin/apps") { request, _ in admin.apps(request) }
        add("GET", "/v1/admin/usage") { request, _ in admin.usage(request) }
        add("GET", "/v1/admin/outcomes") { request, _ in admin.outcomes(request) }
        add("GET", "/v1/admin/layouts") { request, _ in admin.layouts(request) }
        add("POST", "/v1/admin/layouts/rollback") { request, _ in admin.rollBack(request) }
        add("GET", "/v1/admin/reports/:id") { request, parameters in admin.report(request, id: parameters["id"]) }
        add("GET", "/v1/admin/rollouts") { request, _ in admin.rollouts(request) }
        add("GET", "/v1/admin/rollouts/:id") { request, parameters in admin.rollout(request, id: parameters["id"]) }
        add("POST", "/v1/admin/rollouts/:id") { request, parameters in admin.decideRollout(request, id: parameters["id"]) }
        add("GET", "/v1/admin/rollout-reports/:id") { request, parameters in admin.rolloutReport(request, id: parameters["id"]) }
    }
}
