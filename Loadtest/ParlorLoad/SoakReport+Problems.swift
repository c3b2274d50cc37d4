/// What fails a soak. A pure function of what the run counted and measured, so each rule can be shown
/// to catch the fault it is there for (a report whose memory ends 10 % above where it settled fails).
extension SoakReport {
    /// Gauges that must be back at zero once every connection has closed.
    static let emptyAfterClose = ["parlor_connections", "parlor_subscriptions", "parlor_connected_users"]

    /// Every reason the run failed; empty when it passed. `serverSampled`: the server's process was
    /// read (`--server-pid`), so its levels must have been compared unless the run was `interrupted`.
    static func problems(
        counts: Counts, errorsByCode: [String: Int], lifeFailures: [String: Int], checks: SoakChecks, levels: Levels,
        tolerancePercent: Double, serverSampled: Bool, interrupted: Bool
    ) -> [String] {
        var problems: [String] = []
        if counts.livesStarted == 0 { problems.append("no room life started") }
        if counts.livesFailed > 0 { problems.append("\(counts.livesFailed) room lives failed (\(describeTally(lifeFailures)))") }
        let errorCount = errorsByCode.values.reduce(0, +)
        if errorCount > 0 { problems.append("\(errorCount) errors (\(describeTally(errorsByCode)))") }
        if counts.notResumed > 0 { problems.append("\(counts.notResumed) reconnections with a token did not resume their user") }
        if checks.membersBehind > 0 { problems.append("\(checks.membersBehind) members did not receive their room's final version") }
        if checks.nonIncreasingEvents > 0 { problems.append("\(checks.nonIncreasingEvents) room events did not increase the version") }
        if checks.incompleteVersions > 0 { problems.append("\(checks.incompleteVersions) versions never reached every member") }
        if checks.droppedVersions > 0 { problems.append("\(checks.droppedVersions) versions were dropped from tracking") }
        if checks.deletionsMissed > 0 { problems.append("\(checks.deletionsMissed) observers did not see their room deleted") }
        if checks.endsAfterReply > 0 { problems.append("\(checks.endsAfterReply) unsubscribe replies came before their stream's end") }
        // A run stopped early by Ctrl-C may not reach its end window; one that ran its course must.
        if serverSampled && levels.comparisons.isEmpty && !interrupted {
            problems.append("the server's levels could not be compared (no samples after the warm-up or at the end)")
        }
        for comparison in levels.comparisons where !comparison.withinTolerance {
            problems.append(
                String(
                    format: "%@ moved %+.1f%% from where it settled (%.0f → %.0f), beyond ±%.0f%%", comparison.name,
                    comparison.changePercent, comparison.settled, comparison.end, tolerancePercent))
        }
        if let gauges = levels.afterClose?.gauges {
            for name in emptyAfterClose {
                if let value = gauges[name], value != 0 {
                    problems.append("\(name) is \(Int(value)) after every connection closed")
                }
            }
        }
        return problems
    }
}
