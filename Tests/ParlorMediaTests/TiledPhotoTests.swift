import Foundation
import ParlorTestSupport
import Testing
@testable import ParlorMedia

/// Real JPEG files made by Pillow and piexif: their EXIF read, their pixels decoded through
/// libjpeg-turbo, turned upright by every EXIF orientation, scaled, cut into 36 tiles with previews,
/// and re-encoded without any metadata; files that are too big, too small, broken or not JPEGs refused.
@Suite struct TiledPhotoTests {
    enum Colour: Equatable { case red, green, blue, white, other }

    /// The colour a patch of RGB pixels mostly is.
    static func colour(_ rgb: [UInt8]) -> Colour {
        var sums = [0, 0, 0]
        for index in 0..<rgb.count { sums[index % 3] += Int(rgb[index]) }
        let pixels = rgb.count / 3
        let (r, g, b) = (sums[0] / pixels, sums[1] / pixels, sums[2] / pixels)
        switch (r > 150, g > 150, b > 150) {
        case (true, true, true): return .white
        case (true, false, false): return .red
        case (false, true, false): return .green
        case (false, false, true): return .blue
        default: return .other
        }
    }

    static func size(_ jpeg: [UInt8]) throws -> [Int] {
        let (width, height) = try JPEGCodec.dimensions(of: jpeg)
        return [width, height]
    }

    static func tiled(_ jpeg: [UInt8]) throws(MediaError) -> TiledPhoto {
        let file = try JPEGFile(jpeg)
        return try TiledPhoto.make(from: file, orientation: try EXIFMetadata.read(jpeg: file).orientation)
    }

    @Test func aPhotosLocationDateAndOffsetAreReadFromItsEXIF() async throws {
        let photos = try await TestPhotos.make([
            .at(48.8566, 2.3522, taken: "2024:06:14 09:30:00", offset: "+02:00"),
            .at(-33.8688, 151.2093, taken: nil),
            TestPhotos.Spec(taken: "2023:12:31 23:59:59"),
        ])
        let paris = try EXIFMetadata.read(jpeg: try JPEGFile(photos[0]))
        let location = try #require(paris.location)
        #expect(abs(location.latitude - 48.8566) < 1e-5 && abs(location.longitude - 2.3522) < 1e-5)
        let taken = try #require(paris.takenAt)
        let parts: [Int] = [taken.year, taken.month, taken.day, taken.hour, taken.minute, taken.second]
        #expect(parts == [2024, 6, 14, 9, 30, 0])
        #expect(taken.utcOffsetMinutes == 120)
        let sydney = try EXIFMetadata.read(jpeg: try JPEGFile(photos[1]))
        #expect(sydney.location.map { abs($0.latitude + 33.8688) < 1e-5 && abs($0.longitude - 151.2093) < 1e-5 } == true)
        #expect(sydney.takenAt == nil)
        let noGPS = try EXIFMetadata.read(jpeg: try JPEGFile(photos[2]))
        #expect(noGPS.location == nil && noGPS.takenAt?.year == 2023)
    }

    @Test func aPhotoIsCutIntoThirtySixTilesWithPreviewsAndNoMetadata() async throws {
        let jpeg = try await TestPhotos.make(.at(48.8566, 2.3522))
        let tiled = try Self.tiled(jpeg)
        #expect(tiled.width == 480 && tiled.height == 360)
        #expect(tiled.tiles.count == 36 && tiled.previews.count == 36)
        #expect(tiled.previewWidth == 6 && tiled.previewHeight == 5)
        #expect(tiled.previews.allSatisfy { $0.count == 6 * 5 * 3 })
        #expect(Self.colour(tiled.previews[0]) == .red && Self.colour(tiled.previews[5]) == .green)
        #expect(Self.colour(tiled.previews[30]) == .blue && Self.colour(tiled.previews[35]) == .white)
        for tile in tiled.tiles {
            let file = try JPEGFile(tile)
            #expect(file.exif == nil && !file.segments.contains { $0.marker == 0xE1 })
            #expect(try Self.size(tile) == [80, 60])
        }
        let whole = try JPEGFile(tiled.image)
        #expect(whole.exif == nil)
        #expect(try Self.size(tiled.image) == [480, 360])
        // Nothing of the upload's EXIF survives: not its camera, not its position.
        #expect(jpeg.firstRange(of: Array("ParlorTestCamera".utf8)) != nil)
        #expect(tiled.image.firstRange(of: Array("ParlorTestCamera".utf8)) == nil)
        #expect(tiled.tiles.allSatisfy { $0.firstRange(of: Array("ParlorTestCamera".utf8)) == nil })
        // A decoded tile is the corner it was cut from.
        #expect(Self.colour(try JPEGCodec.decode(tiled.tiles[0], atLeast: 80, 60).pixels) == .red)
    }

    @Test(arguments: 1...8) func everyOrientationIsTurnedUpright(orientation: Int) async throws {
        let jpeg = try await TestPhotos.make(TestPhotos.Spec(width: 240, height: 180, latitude: 1, longitude: 1, orientation: orientation))
        let file = try JPEGFile(jpeg)
        #expect(try EXIFMetadata.read(jpeg: file).orientation == orientation)
        #expect(try Self.size(jpeg) == (orientation >= 5 ? [180, 240] : [240, 180]))
        let tiled = try TiledPhoto.make(from: file, orientation: orientation)
        #expect(tiled.width == 240 && tiled.height == 180)
        #expect([0, 5, 30, 35].map { Self.colour(tiled.previews[$0]) } == [.red, .green, .blue, .white])
    }

    @Test func aLargePhotoIsScaledDownAndAProgressiveOneDecodes() async throws {
        let photos = try await TestPhotos.make([
            TestPhotos.Spec(width: 3000, height: 2000, latitude: 1, longitude: 1),
            TestPhotos.Spec(width: 333, height: 500, latitude: 1, longitude: 1, progressive: true),
        ])
        let large = try Self.tiled(photos[0])
        #expect(large.width == 1200 && large.height == 798)  // 1200 × 800, less the rows that make no whole tile
        #expect(try Self.size(large.tiles[0]) == [200, 133])
        #expect(large.previewWidth == 6 && large.previewHeight == 4)
        let tall = try Self.tiled(photos[1])
        #expect(tall.width == 330 && tall.height == 498 && tall.previewWidth == 4 && tall.previewHeight == 6)
        #expect(Self.colour(tall.previews[0]) == .red && Self.colour(tall.previews[35]) == .white)
    }

    @Test func absurdOrTinyDimensionsAreRefusedBeforeDecoding() async throws {
        let jpeg = try await TestPhotos.make(TestPhotos.Spec(width: 120, height: 90))
        // Rewrite the frame header to claim 60000 × 60000 pixels: 3.6 gigapixels.
        var claimed = jpeg
        let frame = try #require(try JPEGFile(jpeg).segments.first { $0.marker == 0xC0 })
        let height = frame.payload.lowerBound + 1
        claimed[height] = 0xEA; claimed[height + 1] = 0x60; claimed[height + 2] = 0xEA; claimed[height + 3] = 0x60
        #expect(try Self.size(claimed) == [60000, 60000])
        #expect(throws: MediaError.self) { try Self.tiled(claimed) }
        do {
            _ = try Self.tiled(claimed)
        } catch {
            #expect(error.kind == .unsupportedSize && error.reason.contains("60000 × 60000"))
        }
        let tiny = try await TestPhotos.make(TestPhotos.Spec(width: 40, height: 40))
        do {
            _ = try Self.tiled(tiny)
            Issue.record("a 40 × 40 photo was tiled")
        } catch {
            #expect(error.kind == .unsupportedSize)
        }
    }

    @Test func brokenFilesAndOtherFormatsAreRefused() async throws {
        let jpeg = try await TestPhotos.make(TestPhotos.Spec(width: 120, height: 90))
        #expect(ImageFormat.sniff(jpeg) == .jpeg)
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
        #expect(ImageFormat.sniff(png) == .png && ImageFormat.sniff(Array("hello".utf8)) == nil)
        #expect(throws: MediaError(.notAnImage, "not a JPEG file (no start-of-image marker)")) { try JPEGFile(png) }
        // Cut inside the frame header: the segment walk refuses it before the decoder sees it.
        #expect(throws: MediaError.self) { try JPEGFile(Array(jpeg.prefix(200))) }
        // Scan data replaced by three bytes of garbage: refused, not decoded into nonsense.
        let file = try JPEGFile(jpeg)
        let scan = try #require(file.segments.first { $0.marker == JPEGFile.startOfScan })
        var garbled = Array(jpeg[..<scan.payload.lowerBound])
        garbled += [0x00, 0x01, 0x02]
        garbled += [0xFF, 0xD9]
        #expect(throws: MediaError.self) { try TiledPhoto.make(from: JPEGFile(garbled), orientation: nil) }
    }
}
