/// Amounts in cents, as people say them: "25¢", "$2.50", "$1,204.00".
public enum Money {
    public static func perPoint(_ cents: Int) -> String {
        cents < 100 ? "\(cents)¢" : dollars(cents)
    }

    public static func dollars(_ cents: Int) -> String {
        let sign = cents < 0 ? "-" : ""
        let magnitude = cents.magnitude
        let whole = String(magnitude / 100)
        var grouped = ""
        for (index, digit) in whole.reversed().enumerated() {
            if index > 0 && index % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        let fraction = magnitude % 100
        return "\(sign)$\(String(grouped.reversed())).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
