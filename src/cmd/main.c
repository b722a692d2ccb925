// SPDX-License-Identifier: GPL-2.0
/*
 * ftguard - command-line front end of ftguard, a function tracer that checks
 * every patch site before it writes to it.
 *
 *   ftguard [-q|-v] [--root DIR] COMMAND [OPTIONS] [ARGS]
 *
 * main() only handles the global options; everything else is a subcommand
 * from the registry (cmd-registry.c).
 */
#include <getopt.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config.h"
#include "cmd/ftguard-cmd.h"

static void print_main_usage(FILE *f)
{
	fprintf(f, "usage: ftguard [-q|-v] [--root DIR] COMMAND [OPTIONS] [ARGS]\n"
		"       ftguard --help | --version\n");
}

static void print_main_help(FILE *f)
{
	print_main_usage(f);
	fprintf(f, "\nTrace kernel functions, checking every patch site first.\n"
		"\ncommands:\n");
	ftg_cmd_print_list(f);
	fprintf(f, "\nglobal options:\n");
	ftg_cmd_print_options(f, ftg_global_options);
	fprintf(f, "\n'ftguard COMMAND --help' describes a command; "
		"'man ftguard-COMMAND' more.\n");
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "root", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct ftg_cmd_ctx ctx = { .argv0 = argv[0] };
	struct stat st;
	int c, status;

	setlocale(LC_CTYPE, "");
	/* A closed pipe (ftguard sites | head) ends the output quietly. */
	signal(SIGPIPE, SIG_DFL);

	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:qvhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'q':
			ctx.verbosity = -1;
			break;
		case 'v':
			if (ctx.verbosity >= 0)
				ctx.verbosity++;
			break;
		case 'r':
			ctx.root = optarg;
			break;
		case 'h':
			print_main_help(stdout);
			return FTG_CMD_OK;
		case 'V':
			printf("ftguard %s\n", PACKAGE_VERSION);
			return FTG_CMD_OK;
		case ':':
			fprintf(stderr, "ftguard: --root needs a directory\n");
			print_main_usage(stderr);
			return FTG_CMD_ERROR;
		default:
			if (optopt)
				fprintf(stderr, "ftguard: unknown option -%c\n", optopt);
			else
				fprintf(stderr, "ftguard: unknown option %s\n", argv[optind - 1]);
			print_main_usage(stderr);
			return FTG_CMD_ERROR;
		}
	}
	if (ctx.root && (stat(ctx.root, &st) < 0 || !S_ISDIR(st.st_mode))) {
		fprintf(stderr, "ftguard: --root %s: not a directory\n", ctx.root);
		return FTG_CMD_ERROR;
	}
	if (optind >= argc) {
		print_main_usage(stderr);
		fprintf(stderr, "(see 'ftguard help' for the commands)\n");
		return FTG_CMD_ERROR;
	}
	status = ftg_cmd_run(&ctx, argc - optind, argv + optind);
	ftg_cmd_ctx_release(&ctx);
	return status;
}
