/* The one program of the shell oracle's sandbox (tests/shell_oracle/sandbox.rs): every program
 * name on the sandbox's PATH is a hard link to it. It writes the name it was run as (the link,
 * read from /proc/self/exe, so `exec -a` cannot disguise it) and its arguments, byte for byte,
 * as one record on descriptor 600, then exits 0; for the few programs that run other programs
 * or transform data (shells, `env`, `xargs`, `base64`, ...) it then runs the real one, bound at
 * /oracle/real/NAME, with the same arguments, so what those run is recorded too.
 *
 * A record is `N:` (the number of fields) then each field as `LEN:BYTES`, written in one
 * write(2) on a descriptor opened for appending. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LOG_FD 600
#define REAL_DIR "/oracle/real/"

static int append(char **buffer, size_t *length, size_t *capacity, const char *bytes, size_t size) {
    if (*length + size > *capacity) {
        size_t wanted = (*length + size) * 2;
        char *grown = realloc(*buffer, wanted);
        if (grown == NULL) return -1;
        *buffer = grown;
        *capacity = wanted;
    }
    memcpy(*buffer + *length, bytes, size);
    *length += size;
    return 0;
}

static int field(char **buffer, size_t *length, size_t *capacity, const char *text) {
    char prefix[32];
    size_t size = strlen(text);
    int written = snprintf(prefix, sizeof prefix, "%zu:", size);
    if (written < 0) return -1;
    if (append(buffer, length, capacity, prefix, (size_t)written) != 0) return -1;
    return append(buffer, length, capacity, text, size);
}

int main(int argc, char **argv) {
    char exe[PATH_MAX];
    ssize_t size = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (size < 0) return 127;
    exe[size] = '\0';
    const char *name = strrchr(exe, '/');
    name = name == NULL ? exe : name + 1;

    char *buffer = NULL;
    size_t length = 0, capacity = 0;
    char count[32];
    int written = snprintf(count, sizeof count, "%d:", argc < 1 ? 1 : argc);
    if (written < 0 || append(&buffer, &length, &capacity, count, (size_t)written) != 0) return 127;
    if (field(&buffer, &length, &capacity, name) != 0) return 127;
    for (int index = 1; index < argc; index++) {
        if (field(&buffer, &length, &capacity, argv[index]) != 0) return 127;
    }
    size_t done = 0;
    while (done < length) {
        ssize_t sent = write(LOG_FD, buffer + done, length - done);
        if (sent < 0 && errno == EINTR) continue;
        if (sent <= 0) return 127;
        done += (size_t)sent;
    }
    free(buffer);

    char real[PATH_MAX];
    written = snprintf(real, sizeof real, "%s%s", REAL_DIR, name);
    if (written > 0 && (size_t)written < sizeof real && access(real, X_OK) == 0) {
        execv(real, argv);
        return 126;
    }
    return 0;
}
