import Geodesy
import Guidance

/// Walks drawn on ``ParisGrid`` for the tests of a walk's plan and its following: a router's
/// nodes by hand (simulation; real plans come from Routino over real extracts).
public enum DrawnWalk {
    /// A node `east`, `north` metres from the grid's origin, on `way`.
    public static func node(_ east: Double, _ north: Double, _ way: String = "Rue A", junction: Bool = false) -> WalkPlan.Node {
        WalkPlan.Node(coordinate: ParisGrid.point(east, north), way: way, isJunction: junction)
    }

    /// 100 m north along Rue A, then 100 m east along Rue B, a node every 10 m, Rue B meeting
    /// Rue A at the corner.
    public static let corner: [WalkPlan.Node] =
        stride(from: 0.0, through: 100, by: 10).map { node(0, $0, "Rue A", junction: $0 == 100) }
        + stride(from: 10.0, through: 100, by: 10).map { node($0, 100, "Rue B") }
}
