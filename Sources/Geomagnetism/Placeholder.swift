public enum GeomagnetismPlaceholder {}
