import Testing

@testable import Places

/// The table of words people type for a kind of place, in five languages (issue 40), held to
/// its rules, and each kind it names to the tags that make it.
@Suite("Category words", .timeLimit(.minutes(5)))
struct CategoryWordsTests {
    /// Tags that make each kind the table asks for, as a map would hold them.
    static let tagsOfKind: [String: [String: String]] = [
        "pharmacy": ["amenity": "pharmacy"], "bakery": ["shop": "bakery"], "restaurant": ["amenity": "restaurant"],
        "cafe": ["amenity": "cafe"], "supermarket": ["shop": "supermarket"], "convenience shop": ["shop": "convenience"],
        "bus stop": ["highway": "bus_stop"], "stop": ["public_transport": "platform"], "atm": ["amenity": "atm"],
        "bank": ["amenity": "bank"], "post office": ["amenity": "post_office"], "toilets": ["amenity": "toilets"],
        "hotel": ["tourism": "hotel"], "school": ["amenity": "school"], "church": ["amenity": "place_of_worship", "religion": "christian"],
        "mosque": ["amenity": "place_of_worship", "religion": "muslim"], "parking": ["amenity": "parking"], "fuel": ["amenity": "fuel"],
        "bar": ["amenity": "bar"], "pub": ["amenity": "pub"], "fast food": ["amenity": "fast_food"], "hospital": ["amenity": "hospital"],
        "doctors": ["amenity": "doctors"], "clinic": ["amenity": "clinic"], "police": ["amenity": "police"],
        "library": ["amenity": "library"], "museum": ["tourism": "museum"], "park": ["leisure": "park"],
        "station": ["railway": "station"], "drinking water": ["amenity": "drinking_water"], "bench": ["amenity": "bench"],
        "playground": ["leisure": "playground"], "taxi": ["amenity": "taxi"], "bicycle parking": ["amenity": "bicycle_parking"],
        "ice cream": ["amenity": "ice_cream"], "beach": ["natural": "beach"],
        "tourist office": ["tourism": "information", "information": "office"],
    ]

    @Test("every line has its three fields; every kind is one the tags make")
    func wellFormed() {
        #expect(CategoryWords.lines.count == CategoryWords.table.split(separator: "\n").count)
        for line in CategoryWords.lines {
            #expect(!line.words.isEmpty)
            for kind in line.kinds {
                let tags = Self.tagsOfKind[kind]
                #expect(tags != nil, "no tags known for \(kind)")
                if let tags { #expect(PlaceKind.kind(tags) == kind, "\(tags) is \(PlaceKind.kind(tags) ?? "nothing"), not \(kind)") }
            }
        }
    }

    @Test("each set of kinds in English, German, French, Italian and Spanish")
    func fiveLanguages() {
        var languages: [Set<String>: Set<String>] = [:]
        for line in CategoryWords.lines { languages[line.kinds, default: []].insert(line.language) }
        for (kinds, found) in languages { #expect(found == ["en", "de", "fr", "it", "es"], "\(kinds.sorted()): \(found.sorted())") }
    }

    @Test("words are folded as typing is, and no word asks for two sets of kinds")
    func oneMeaning() {
        var meaning: [String: Set<String>] = [:]
        for line in CategoryWords.lines {
            for word in line.words {
                #expect(TextFolding.folded(word) == word, "\(word) is not folded")
                if let earlier = meaning[word] { #expect(earlier == line.kinds, "\(word): \(earlier.sorted()) and \(line.kinds.sorted())") }
                meaning[word] = line.kinds
            }
        }
    }

    @Test("singular and plural, words and their beginnings (issue 40's pharmacie, boulang, bus, beach, tourist office)")
    func asked() {
        #expect(PlaceKind.category("pharmacie") == ["pharmacy"])
        #expect(PlaceKind.category("farmacias") == ["pharmacy"])
        #expect(PlaceKind.category("apotheken") == ["pharmacy"])
        #expect(PlaceKind.category("boulang") == ["bakery"])
        #expect(PlaceKind.category("bus") == ["bus stop", "stop"])
        #expect(PlaceKind.category("beach") == ["beach"])
        #expect(PlaceKind.category("tourist office") == ["tourist office"])
        #expect(PlaceKind.category("office du tourisme") == ["tourist office"])
        #expect(PlaceKind.category("station") == ["station"])
        // Too short to be sure, or the beginning of words for two kinds (Italian's car park,
        // parcheggio, and parks, parchi).
        #expect(PlaceKind.category("pha") == nil)
        #expect(PlaceKind.category("parch") == nil)
        #expect(PlaceKind.category("banc") == ["bench"])
        #expect(PlaceKind.category("nizza") == nil)
    }

    @Test("one plain name a kind: a platform for buses is a bus stop")
    func plainNames() {
        #expect(PlaceKind.kind(["public_transport": "platform", "bus": "yes"]) == "bus stop")
        #expect(PlaceKind.kind(["public_transport": "platform", "tram": "yes"]) == "tram stop")
        #expect(PlaceKind.kind(["tourism": "information", "information": "board"]) == "information")
    }
}
