#!/bin/sh
# Starts Engram from the image's /deployments, with the AOT cache when the image has one (a training run has no
# cache yet). JAVA_OPTS holds the container defaults and replaces them when set; JAVA_OPTS_APPEND adds to them.
# The JVM replaces this shell (exec), so it is PID 1 and receives SIGTERM itself.
set -eu
cd "${ENGRAM_HOME:-/deployments}"
aot=""
if [ -f app.aot ]; then
    aot="-XX:AOTCache=app.aot"
fi
# shellcheck disable=SC2086 # the options are words
exec java $aot -Djava.util.logging.manager=org.jboss.logmanager.LogManager ${JAVA_OPTS:-} ${JAVA_OPTS_APPEND:-} \
    -jar quarkus-run.jar "$@"
