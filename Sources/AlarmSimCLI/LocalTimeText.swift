import AlarmBridge

/// Device wall instants as local wall time, for humans (`run --continue-seeds`, `diff`).
enum LocalTimeText {
    /// `2026-03-02 07:00:20.123 Europe/Berlin`: the Unix-epoch ms `wallMs` as local wall time in
    /// `zone` (the run's start zone), milliseconds always written; the raw ms if the zone is unknown.
    static func format(_ wallMs: Int64, zone: String) -> String {
        guard let calendar = WallCalendar(zoneIdentifier: zone) else { return "\(wallMs) ms" }
        let local = calendar.local(wallMs)
        let millis = ((wallMs % 1_000) + 1_000) % 1_000
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let ms = millis < 10 ? "00\(millis)" : (millis < 100 ? "0\(millis)" : "\(millis)")
        return "\(local.year)-\(two(local.month))-\(two(local.day)) \(two(local.hour)):\(two(local.minute)):\(two(local.second)).\(ms) \(zone)"
    }
}
