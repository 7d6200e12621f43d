/* staged_dir.h — replacing a set of files in a folder only when all of them
 * are written: the files go into a fresh staging folder inside the target
 * folder (DIR/.coarsen-staging-PID, mode 0700, same file system), and only
 * staged_dir_commit moves them into DIR, each by rename(2), or by an atomic
 * exchange with an existing file of the same name (renameat2
 * RENAME_EXCHANGE, where the file system has it: the name never goes
 * missing and ext4 does not write the new file out first), and then removes
 * the files of an earlier set that the new one does not have (the caller
 * says which names belong to such sets; nothing else in DIR is touched);
 * replaced files go with the staging folder, unlinked in parallel. staged_dir_abort, or a failed commit
 * before its first rename, leaves DIR exactly as it was (DIR itself removed
 * when staged_dir_open created it).
 *
 * Not atomic as a whole: a crash (or a failing rename(2)) during the commit
 * leaves DIR holding some files of the new set and some of the old one,
 * each complete, never a partial file; a killed process leaves its staging
 * folder behind, which may then be deleted. */
#ifndef IO_STAGED_DIR_H
#define IO_STAGED_DIR_H

#include "coarsen.h"

typedef struct staged_dir staged_dir;

/* Creates dir when missing (refusing a path that is not a folder:
 * "DIR: not a folder") and its staging folder; NULL with err set
 * (COARSEN_ERR_IO, one line naming the path) on failure, nothing left. */
staged_dir *staged_dir_open(const char *dir, coarsen_error *err);

/* Checks, before any work, that staged_dir_open(dir) would succeed: dir
 * is a folder that takes new entries, or does not exist and can be created
 * (its parent folder takes new entries). The same one-line errors,
 * COARSEN_ERR_IO; creates nothing. */
int staged_dir_check(const char *dir, coarsen_error *err);

/* Records name (a plain file name, no '/') as one of the new set and
 * returns the path to write it at inside the staging folder (owned by s,
 * valid until the next call); NULL with err set when out of memory or the
 * path is too long. The caller writes it (io/output_file.h); a name never
 * written makes the commit fail. */
const char *staged_dir_file(staged_dir *s, const char *name, coarsen_error *err);

/* Moves every recorded file into dir, then removes each file of dir that
 * is not one of them and for which owned(name) is nonzero; removes the
 * staging folder and frees s whatever happens. Before the first rename it
 * checks that no recorded name is taken in dir by a folder ("DIR/NAME:
 * cannot replace a folder") and that every file was written; such a failure
 * leaves dir as staged_dir_abort does. COARSEN_OK or COARSEN_ERR_IO (err:
 * one line naming the path). */
int staged_dir_commit(staged_dir *s, int (*owned)(const char *name), coarsen_error *err);

/* Removes the staging folder with everything in it (and dir when
 * staged_dir_open created it); frees s. NULL is allowed. */
void staged_dir_abort(staged_dir *s);

#endif
