import Foundation
import Testing
@testable import DocStore

extension CodingTests {
    /// The streaming encoder's container bookkeeping.
    @Suite("Encoder containers") struct EncoderContainers {
        class Animal: Codable {
            var name: String
            init(name: String) { self.name = name }
            private enum CodingKeys: String, CodingKey { case name }
        }

        final class Dog: Animal {
            var breed: String
            init(name: String, breed: String) {
                self.breed = breed
                super.init(name: name)
            }
            private enum CodingKeys: String, CodingKey { case breed }
            required init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                breed = try container.decode(String.self, forKey: .breed)
                try super.init(from: container.superDecoder())
            }
            override func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try super.encode(to: container.superEncoder())
                try container.encode(breed, forKey: .breed)
            }
        }

        @Test("superEncoder/superDecoder round-trip")
        func superCoders() throws {
            let text = try encodeText(Dog(name: "Rex", breed: "Lab"))
            #expect(text == #"{"breed":"Lab","super":{"name":"Rex"}}"#)
            let dog = try DocumentCodec.decode(Dog.self, from: text)
            #expect(dog.name == "Rex" && dog.breed == "Lab")
        }

        struct Manual: Encodable {
            enum Keys: String, CodingKey { case a, b, c, nested, list }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                try container.encode(1, forKey: .a)
                var nested = container.nestedContainer(keyedBy: Keys.self, forKey: .nested)
                try nested.encode("x", forKey: .b)
                var deeper = nested.nestedUnkeyedContainer(forKey: .list)
                try deeper.encode(true)
                try deeper.encodeNil()
                try container.encodeNil(forKey: .c)
                var list = container.nestedUnkeyedContainer(forKey: .list)
                var inner = list.nestedContainer(keyedBy: Keys.self)
                try inner.encode(2.5, forKey: .a)
                try list.encode([Int]())
            }
        }

        @Test("nested containers close in order; explicit encodeNil writes null")
        func nestedContainers() throws {
            #expect(try encodeText(Manual()) == #"{"a":1,"nested":{"b":"x","list":[true,null]},"c":null,"list":[{"a":2.5},[]]}"#)
        }

        struct Shared: Encodable {
            enum Keys: String, CodingKey { case a, b }
            func encode(to encoder: any Encoder) throws {
                var first = encoder.container(keyedBy: Keys.self)
                try first.encode(1, forKey: .a)
                var second = encoder.container(keyedBy: Keys.self)
                try second.encode(2, forKey: .b)
            }
        }

        @Test("asking for the keyed container twice continues one object")
        func sharedContainer() throws {
            #expect(try encodeText(Shared()) == #"{"a":1,"b":2}"#)
        }

        struct Empty: Codable, Equatable {
            func encode(to encoder: any Encoder) throws {}
            init() {}
            init(from decoder: any Decoder) throws {}
        }

        @Test("a value that writes nothing is an empty object")
        func emptyValue() throws {
            #expect(try encodeText(["e": Empty()]) == #"{"e":{}}"#)
        }

        struct OutOfOrder: Encodable {
            enum Keys: String, CodingKey { case a, b }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                var nested = container.nestedContainer(keyedBy: Keys.self, forKey: .a)
                try container.encode(1, forKey: .b)
                try nested.encode(2, forKey: .b)  // too late: a streaming encoder has closed it
            }
        }

        @Test("writing to a closed container is an error, never wrong JSON")
        func outOfOrder() {
            let error = codingError { _ = try DocumentCodec.encode(OutOfOrder()) }
            #expect(error?.kind == .unsupportedValue)
            #expect(error?.codingPath == "a")
        }
    }
}
