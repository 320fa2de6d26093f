#ifndef MENURANK_CLIBPQ_SHIM_H
#define MENURANK_CLIBPQ_SHIM_H
#include <libpq-fe.h>

/* PG_DIAG_* are character literals ('C', 'M', ...) that Swift does not import. */
static inline int menurank_pg_diag_sqlstate(void) { return 'C'; }
static inline int menurank_pg_diag_severity(void) { return 'V'; }
static inline int menurank_pg_diag_message_primary(void) { return 'M'; }
static inline int menurank_pg_diag_message_detail(void) { return 'D'; }
static inline int menurank_pg_diag_message_hint(void) { return 'H'; }
static inline int menurank_pg_diag_constraint_name(void) { return 'n'; }
static inline int menurank_pg_diag_table_name(void) { return 't'; }
static inline int menurank_pg_diag_column_name(void) { return 'c'; }
static inline int menurank_pg_diag_statement_position(void) { return 'P'; }
#endif
