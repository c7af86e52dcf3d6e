#include <sqlite3.h>

// sqlite3_db_config is variadic, which Swift cannot call: one non-variadic wrapper for the options that take an
// int and an int* (SQLITE_DBCONFIG_DQS_DML, SQLITE_DBCONFIG_DQS_DDL, ...).
static inline int migrationbench_db_config_int(sqlite3 *db, int op, int value, int *result) {
    return sqlite3_db_config(db, op, value, result);
}
