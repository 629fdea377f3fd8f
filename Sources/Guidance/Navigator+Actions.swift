extension Navigator {
    /// What one event asks of the daemon, in order: at most ``capacity`` actions, stored inline
    /// so the 50 Hz sample path allocates nothing (an `Array` would allocate for every cue).
    public struct Actions: Sendable, Hashable, RandomAccessCollection, ExpressibleByArrayLiteral {
        /// The most actions one event produces: a pattern for a new destination, the cue, and
        /// an arrival or warning pattern; twice that for a fix that moves a route on (the next
        /// waypoint set, then the fix taken).
        public static let capacity = 6

        private var first: Action?
        private var second: Action?
        private var third: Action?
        private var fourth: Action?
        private var fifth: Action?
        private var sixth: Action?
        /// How many actions there are.
        public private(set) var count = 0

        /// No actions.
        public init() {}

        /// For tests and constants; the navigator itself appends, since a variadic array
        /// literal allocates.
        public init(arrayLiteral actions: Action...) {
            for action in actions { append(action) }
        }

        public var startIndex: Int { 0 }
        public var endIndex: Int { count }

        public subscript(position: Int) -> Action {
            precondition(position >= 0 && position < count, "action index out of range")
            switch position {
            case 0: return first!
            case 1: return second!
            case 2: return third!
            case 3: return fourth!
            case 4: return fifth!
            default: return sixth!
            }
        }

        /// Adds an action at the end.
        public mutating func append(_ action: Action) {
            switch count {
            case 0: first = action
            case 1: second = action
            case 2: third = action
            case 3: fourth = action
            case 4: fifth = action
            case 5: sixth = action
            default: preconditionFailure("more than \(Self.capacity) actions for one event")
            }
            count += 1
        }

        /// Adds an action at the front.
        public mutating func prepend(_ action: Action) {
            let rest = self
            self = Actions()
            append(action)
            self += rest
        }

        /// Appends every action of `other`.
        public static func += (actions: inout Actions, other: Actions) {
            for action in other { actions.append(action) }
        }
    }
}
