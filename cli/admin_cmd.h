/* admin_cmd.h: admin subcommands of pbem: export and import of matches
 * (signed with the admin key), and the check of an export file. */
#ifndef CLI_ADMIN_CMD_H
#define CLI_ADMIN_CMD_H

/* pbem export --key FILE [--url URL] MATCH
 * pbem export --key FILE [--url URL] --status S|all [--since T] [--until T]
 * The export (JSON Lines) to stdout. */
int export_cmd_main(int argc, char **argv);

/* pbem import --key FILE [--url URL] [--new-id] EXPORT_FILE */
int import_cmd_main(int argc, char **argv);

/* `pbem verify --export FILE`: checks every match of an export file as the
 * import does (export_check.h); prints one verdict per match. 0 all good,
 * 1 a match is bad, 2 the file cannot be read. */
int admin_verify_export_file(const char *file);

#endif
