/*
 * Read a topology.conf with libslurm's own parser (src/common/parse_config.c: s_p_parse_file,
 * exported by libslurm as slurm_s_p_*) as Slurm's topology/tree plugin does
 * (src/plugins/topology/tree/switch_record.c: SwitchName lines with Nodes, Switches and
 * LinkSpeed), and print what it read, one line per SwitchName statement:
 *
 *     rc <tab> <s_p_parse_file's return: 0 clean, -1 parse error>
 *     switch <tab> NAME [<tab> nodes <US> name <US> name ...] [<tab> switches <US> ...]
 *
 * the node and switch lists expanded by libslurm's hostlist (slurm_hostlist_create).  The
 * declarations below are those of parse_config.h (Slurm 22.05), which libslurm does not
 * install; the handler does what the plugin's _parse_switches does.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <slurm/slurm.h>

enum { S_P_IGNORE = 0, S_P_STRING, S_P_LONG, S_P_UINT16, S_P_UINT32, S_P_UINT64, S_P_POINTER,
       S_P_ARRAY };
typedef struct conf_file_options {
	char *key;
	int type;
	int (*handler)(void **data, int type, const char *key, const char *value,
		       const char *line, char **leftover);
	void (*destroy)(void *data);
	struct conf_file_options *line_options;
} s_p_options_t;
typedef void s_p_hashtbl_t;
extern s_p_hashtbl_t *slurm_s_p_hashtbl_create(const s_p_options_t options[]);
extern void slurm_s_p_hashtbl_destroy(s_p_hashtbl_t *table);
extern int slurm_s_p_parse_file(s_p_hashtbl_t *table, uint32_t *hash_val, char *filename,
				bool ignore_new, char *last_ancestor);
extern int slurm_s_p_parse_line(s_p_hashtbl_t *table, const char *line, char **leftover);
extern int slurm_s_p_get_string(char **str, const char *key, const s_p_hashtbl_t *table);
extern int slurm_s_p_get_array(void **ptr_array[], int *count, const char *key,
			       const s_p_hashtbl_t *table);

typedef struct {
	char *name, *nodes, *switches;
} switch_line_t;

static void print_list(const char *key, const char *value)
{
	hostlist_t list;
	char *host;

	if (!value)
		return;
	list = slurm_hostlist_create(value);
	printf("\t%s", key);
	while ((host = slurm_hostlist_shift(list))) {
		printf("\x1f%s", host);
		free(host);
	}
	slurm_hostlist_destroy(list);
}

static int parse_switch(void **dest, int type, const char *key, const char *value,
			const char *line, char **leftover)
{
	static s_p_options_t options[] = {
		{"LinkSpeed", S_P_UINT32}, {"Nodes", S_P_STRING}, {"Switches", S_P_STRING}, {NULL}
	};
	s_p_hashtbl_t *table = slurm_s_p_hashtbl_create(options);
	switch_line_t *found = calloc(1, sizeof(*found));

	slurm_s_p_parse_line(table, *leftover, leftover);
	found->name = strdup(value);
	slurm_s_p_get_string(&found->nodes, "Nodes", table);
	slurm_s_p_get_string(&found->switches, "Switches", table);
	slurm_s_p_hashtbl_destroy(table);
	*dest = found;
	return 1;
}

int main(int argc, char **argv)
{
	static s_p_options_t options[] = {
		{"SwitchName", S_P_ARRAY, parse_switch, NULL}, {NULL}
	};
	s_p_hashtbl_t *table;
	switch_line_t **found;
	int count = 0, rc;

	if (argc != 2) {
		fprintf(stderr, "usage: %s topology.conf\n", argv[0]);
		return 2;
	}
	table = slurm_s_p_hashtbl_create(options);
	rc = slurm_s_p_parse_file(table, NULL, argv[1], false, NULL);
	if (!slurm_s_p_get_array((void ***)&found, &count, "SwitchName", table))
		count = 0;
	printf("rc\t%d\n", rc);
	for (int i = 0; i < count; i++) {
		printf("switch\t%s", found[i]->name);
		print_list("nodes", found[i]->nodes);
		print_list("switches", found[i]->switches);
		printf("\n");
	}
	return 0;
}
