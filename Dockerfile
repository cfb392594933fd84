# Scan Lab's image: Debian 12 with every package scripts/install-deps.sh --all installs, for
# anyone whose machine is not Debian or Ubuntu (macOS, Windows, another Linux). It builds for
# amd64 and arm64 alike. From a clone of the repository:
#
#   docker build -t scan-lab .
#   docker run --rm -it --user "$(id -u):$(id -g)" -v "$PWD":/scan-lab scan-lab ./scanlab run
#   docker run --rm -it --user "$(id -u):$(id -g)" -v "$PWD":/scan-lab scan-lab ./scanlab test
#
# The clone stays on the host (edit it with any editor there); build/ and traces/ are written
# into it. .devcontainer/devcontainer.json uses this same file.
FROM debian:12

# The package list lives in one place: the script the two commands run anyway.
COPY scripts/install-deps.sh /tmp/install-deps.sh
RUN apt-get update \
 && /tmp/install-deps.sh --all \
 && apt-get install -y -qq --no-install-recommends ca-certificates git sudo \
 && rm -rf /var/lib/apt/lists/* /tmp/install-deps.sh

# A user of its own (uid 1000, sudo without a password) for the dev container; `docker run
# --user` picks the host's instead, so that what the build writes into the clone is the host
# user's.
RUN useradd --create-home --uid 1000 --shell /bin/bash student \
 && echo "student ALL=(ALL) NOPASSWD:ALL" > /etc/sudoers.d/student \
 && chmod 0440 /etc/sudoers.d/student
# A clone owned by another uid than the one running git is "dubious" to git.
RUN git config --system --add safe.directory '*'
ENV HOME=/tmp
WORKDIR /scan-lab
CMD ["./scanlab", "help"]
