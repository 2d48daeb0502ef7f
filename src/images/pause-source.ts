/**
 * The pause program of the `pause` image, as Kubernetes' pause.c behaves: it
 * holds the pod's namespaces, sleeps until SIGINT or SIGTERM (then exits 0)
 * and reaps any child re-parented to it. Compiled statically with gcc; its
 * text is part of the image's cache key.
 */
export const PAUSE_C = `#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void on_stop(int sig) {
  (void)sig;
  _exit(0);
}

static void on_child(int sig) {
  (void)sig;
  while (waitpid(-1, NULL, WNOHANG) > 0) {
  }
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "-v") == 0) {
    printf("pause (hearth)\\n");
    return 0;
  }
  if (getpid() != 1) fprintf(stderr, "pause: warning: not PID 1\\n");
  struct sigaction stop = {.sa_handler = on_stop};
  struct sigaction child = {.sa_handler = on_child, .sa_flags = SA_NOCLDSTOP};
  if (sigaction(SIGINT, &stop, NULL) < 0 || sigaction(SIGTERM, &stop, NULL) < 0 ||
      sigaction(SIGCHLD, &child, NULL) < 0) {
    perror("pause: sigaction");
    return 1;
  }
  for (;;) pause();
  return 1;
}
`;
