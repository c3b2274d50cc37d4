// SQLite (libsqlite3-dev), the default room store. SQLITE_TRANSIENT is a cast of -1 to a function
// pointer, which Swift cannot import, so binding a copied text or blob gets a function here.
#ifndef PARLOR_CSQLITE_H
#define PARLOR_CSQLITE_H

#include <sqlite3.h>

/// sqlite3_bind_text with SQLITE_TRANSIENT: SQLite copies the bytes before returning.
int parlor_sqlite_bind_text(sqlite3_stmt *statement, int index, const char *text, int length);

/// sqlite3_bind_blob with SQLITE_TRANSIENT: SQLite copies the bytes before returning.
int parlor_sqlite_bind_blob(sqlite3_stmt *statement, int index, const void *bytes, int length);

#endif
