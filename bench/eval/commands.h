/*
 * commands.h — the subcommands of `h2emv-eval` (main.c), one file each:
 * cmd_sim.c, cmd_questions.c, cmd_eval.c. Each takes its own argv (argv[0]
 * is the subcommand's name) and returns an exit code of
 * tools/common/cli_helpers.h.
 */
#ifndef H2EMV_EVAL_COMMANDS_H
#define H2EMV_EVAL_COMMANDS_H

int cmd_sim(int argc, char **argv);
int cmd_questions(int argc, char **argv);
int cmd_eval(int argc, char **argv);

#endif
