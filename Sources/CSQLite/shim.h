#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro of a cast Swift cannot import: sqlite3_bind_text copies the text.
static inline sqlite3_destructor_type waypoint_sqlite_transient(void) { return SQLITE_TRANSIENT; }
