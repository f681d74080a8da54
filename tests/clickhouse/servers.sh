# shellcheck shell=bash
# ClickHouse for the tests and benchmarks, sourced (bash) by
# tests/clickhouse/run.sh and tests/bench/scale_bench.sh:
#   ch_install        installs Debian's clickhouse-server/-client (18.16) and
#                     curl when missing (apt-get, as root or through sudo)
#   ch_start_two DIR  starts two clickhouse-server processes on 127.0.0.1 (free
#                     ports, data and generated configs under DIR), shards of
#                     the cluster `latscope_two_shards` (docs/cluster-merge.md);
#                     sets TCP1 HTTP1 TCP2 HTTP2; ch1/ch2 run clickhouse-client
#                     against each; user `page` is readonly with the CORS header
#   stop_servers      stops them; the caller calls it from its EXIT trap
#   ch_distributed CH NAME LOCAL KEY
#                     creates latscope.NAME, a Distributed table over each
#                     shard's latscope.LOCAL sharded by KEY, on server CH
SERVER=/usr/sbin/clickhouse-server
PIDS=()

ch_install() {
  local need=""
  [ -x "$SERVER" ] || need="$need clickhouse-server"
  command -v clickhouse-client >/dev/null 2>&1 || need="$need clickhouse-client"
  command -v curl >/dev/null 2>&1 || need="$need curl"  # the HTTP interface check
  if [ -n "$need" ]; then
    echo "installing$need (apt-get)"
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then
      command -v sudo >/dev/null 2>&1 || { echo "FAIL$need missing, and this is neither root nor has sudo"; exit 1; }
      SUDO="sudo"
    fi
    $SUDO apt-get update -qq
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $need >/dev/null
  fi
}

stop_servers() {
  local pid i
  for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do
    # Bounded: ClickHouse stops in about a second; KILL after 20 s.
    for ((i = 0; i < 200; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && { echo "server $pid did not stop in 20 s: killed"; kill -KILL "$pid" 2>/dev/null || true; }
    wait "$pid" 2>/dev/null || true
  done
  PIDS=()
}

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
# Four free ports (tcp + http per server), from a base that differs per run
# so that runs of other worktrees on the same machine do not collide.
pick_ports() {
  local base=$((20000 + ($$ % 4000) * 10)) tries p ok_all
  for ((tries = 0; tries < 50; tries++)); do
    ok_all=1
    for p in $base $((base + 1)) $((base + 2)) $((base + 3)); do port_free "$p" || ok_all=0; done
    if [ $ok_all = 1 ]; then echo "$base"; return; fi
    base=$((base + 10))
  done
  echo "FAIL no four free ports found near $base" >&2
  exit 1
}

write_config() {  # dir tcp http
  mkdir -p "$1/data" "$1/tmp" "$1/user_files" "$1/format_schemas"
  cat >"$1/config.xml" <<EOF
<?xml version="1.0"?>
<yandex>
  <logger>
    <level>information</level>
    <log>$1/server.log</log>
    <errorlog>$1/server.err.log</errorlog>
    <size>10M</size>
    <count>1</count>
  </logger>
  <listen_host>127.0.0.1</listen_host>
  <tcp_port>$2</tcp_port>
  <http_port>$3</http_port>
  <path>$1/data/</path>
  <tmp_path>$1/tmp/</tmp_path>
  <user_files_path>$1/user_files/</user_files_path>
  <format_schema_path>$1/format_schemas/</format_schema_path>
  <users_config>users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <mark_cache_size>268435456</mark_cache_size>
  <remote_servers>
    <latscope_two_shards>
      <shard><replica><host>127.0.0.1</host><port>$TCP1</port></replica></shard>
      <shard><replica><host>127.0.0.1</host><port>$TCP2</port></replica></shard>
    </latscope_two_shards>
  </remote_servers>
</yandex>
EOF
  cat >"$1/users.xml" <<'EOF'
<?xml version="1.0"?>
<yandex>
  <profiles>
    <default></default>
    <page>
      <readonly>1</readonly>
      <add_http_cors_header>1</add_http_cors_header>
    </page>
  </profiles>
  <users>
    <default>
      <password></password>
      <networks><ip>127.0.0.1</ip></networks>
      <profile>default</profile>
      <quota>default</quota>
    </default>
    <page>
      <password></password>
      <networks><ip>127.0.0.1</ip></networks>
      <profile>page</profile>
      <quota>default</quota>
    </page>
  </users>
  <quotas><default></default></quotas>
</yandex>
EOF
}

start_server() {  # dir tcp
  "$SERVER" --config-file="$1/config.xml" >"$1/stdout.log" 2>&1 &
  local pid=$! i
  PIDS+=("$pid")
  # Bounded wait: poll once per 0.25 s for 60 s.
  for ((i = 0; i < 240; i++)); do
    if clickhouse-client --host 127.0.0.1 --port "$2" -q 'SELECT 1' >/dev/null 2>&1; then return 0; fi
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "FAIL clickhouse-server ($1, port $2) exited during start-up; its output and log:"
      tail -n 40 "$1/stdout.log" "$1/server.err.log" "$1/server.log" 2>/dev/null || true
      exit 1
    fi
    sleep 0.25
  done
  echo "FAIL clickhouse-server ($1, port $2) did not answer within 60 s; its log:"
  tail -n 40 "$1/stdout.log" "$1/server.err.log" "$1/server.log" 2>/dev/null || true
  exit 1
}


ch_start_two() {  # dir
  local base
  base=$(pick_ports)
  TCP1=$base HTTP1=$((base + 1)) TCP2=$((base + 2)) HTTP2=$((base + 3))
  write_config "$1/s1" "$TCP1" "$HTTP1"
  write_config "$1/s2" "$TCP2" "$HTTP2"
  start_server "$1/s1" "$TCP1"
  start_server "$1/s2" "$TCP2"
}
ch_distributed() {  # ch name local sharding-key (docs/cluster-merge.md, section 2)
  "$1" -q "CREATE TABLE latscope.$2 AS latscope.$3 ENGINE = Distributed(latscope_two_shards, latscope, $3, $4)"
}
ch1() { clickhouse-client --host 127.0.0.1 --port "$TCP1" "$@"; }
ch2() { clickhouse-client --host 127.0.0.1 --port "$TCP2" "$@"; }
