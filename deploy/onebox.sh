#!/usr/bin/env bash
# A whole twmahjong cluster on one machine: PostgreSQL, Redis, N workers and nginx in
# front of them, from Debian's packages. docs/deploy.md explains each piece and what
# changes on several machines; tests/server/test_deploy.py runs this script.
#
#   deploy/onebox.sh up     [DIR]   start everything (state, logs and pids in DIR)
#   deploy/onebox.sh status [DIR]   the load balancer's health answer, and each worker's
#   deploy/onebox.sh down   [DIR]   drain the workers (SIGTERM), stop the rest, drop DIR's database
#
# Settings (environment), with their defaults:
#   ONEBOX_PORT=8080         where nginx listens (players and the health check use it)
#   ONEBOX_WORKERS=2         twmj serve processes, on ONEBOX_WORKER_PORT, +1, ...
#   ONEBOX_WORKER_PORT=8001
#   ONEBOX_PG_PORT=55432     a PostgreSQL cluster of its own (pg_createcluster; needs root)
#   ONEBOX_REDIS_PORT=56379  a redis-server of its own
#   ONEBOX_DATABASE=         use this database URL instead of starting PostgreSQL
#   ONEBOX_CONN_PER_ADDRESS=64  one address's open connections at nginx (a load bench
#                            on loopback is one address: bench/load.py in docs/operations.md)
#   ONEBOX_TURN=0            1: also start coturn (apt-get install coturn) for voice at the
#                            table, and hand it to the workers (TWMJ_ICE_SERVERS, TWMJ_TURN_SECRET)
#   ONEBOX_TURN_PORT=3478    its STUN/TURN port (UDP and TCP); relays on ONEBOX_TURN_RELAYS
#   ONEBOX_TURN_RELAYS=49160-49200
#   ONEBOX_TURN_HOST=127.0.0.1  the address players' browsers reach it at (this machine's public one)
#   TWMJ=                    the twmj command (default: .venv/bin/twmj beside this script)
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
cmd=${1:-}
dir=$(mkdir -p "${2:-$here/onebox}" && cd "${2:-$here/onebox}" && pwd)
port=${ONEBOX_PORT:-8080}
workers=${ONEBOX_WORKERS:-2}
wport=${ONEBOX_WORKER_PORT:-8001}
pgport=${ONEBOX_PG_PORT:-55432}
rport=${ONEBOX_REDIS_PORT:-56379}
per_address=${ONEBOX_CONN_PER_ADDRESS:-64}
twmj=${TWMJ:-$here/.venv/bin/twmj}
turn=${ONEBOX_TURN:-0}
tport=${ONEBOX_TURN_PORT:-3478}
trelays=${ONEBOX_TURN_RELAYS:-49160-49200}
thost=${ONEBOX_TURN_HOST:-127.0.0.1}
# one PostgreSQL cluster per directory, named after it, so two boxes never share one
cluster="twmj_$(printf '%s' "$dir" | md5sum | cut -c1-8)"

say() { printf 'onebox: %s\n' "$*"; }
die() { printf 'onebox: error: %s\n' "$*" >&2; exit 2; }

pg_version() { ls /usr/lib/postgresql 2>/dev/null | sort -V | tail -1; }

wait_for() {    # wait_for WHAT COMMAND...: poll until the command succeeds (a hang guard of 120 s)
    local what=$1; shift
    for _ in $(seq 1200); do "$@" >/dev/null 2>&1 && return 0; sleep 0.1; done
    die "$what did not come up (see $dir/*.log)"
}

start_postgres() {
    if [ -n "${ONEBOX_DATABASE:-}" ]; then
        echo "$ONEBOX_DATABASE" > "$dir/database"
        return
    fi
    command -v pg_createcluster >/dev/null || die "PostgreSQL is not installed (apt-get install postgresql), or set ONEBOX_DATABASE"
    [ "$(id -u)" = 0 ] || die "starting PostgreSQL needs root (pg_createcluster); or set ONEBOX_DATABASE=postgresql+asyncpg://..."
    local ver; ver=$(pg_version)
    if ! pg_lsclusters -h | awk '{print $1, $2}' | grep -qx "$ver $cluster"; then
        pg_createcluster "$ver" "$cluster" -p "$pgport" -- --auth-local=trust --auth-host=scram-sha-256 >/dev/null
    fi
    pg_ctlcluster "$ver" "$cluster" start 2>/dev/null || true
    wait_for PostgreSQL runuser -u postgres -- psql -p "$pgport" -qtAX -d postgres -c 'select 1'
    local psql=(runuser -u postgres -- psql -p "$pgport" -qtAX -d postgres)
    [ "$("${psql[@]}" -c "select 1 from pg_roles where rolname='twmj'")" = 1 ] ||
        "${psql[@]}" -c "create role twmj login password 'twmj'"
    [ "$("${psql[@]}" -c "select 1 from pg_database where datname='twmj'")" = 1 ] ||
        "${psql[@]}" -c "create database twmj owner twmj"
    echo "postgresql+asyncpg://twmj:twmj@127.0.0.1:$pgport/twmj" > "$dir/database"
}

start_redis() {
    command -v redis-server >/dev/null || die "Redis is not installed (apt-get install redis-server)"
    if ! redis-cli -p "$rport" ping >/dev/null 2>&1; then
        # a cache and a bus, not the truth (PostgreSQL is): no snapshots to disk
        redis-server --bind 127.0.0.1 --port "$rport" --daemonize yes --save '' --appendonly no \
            --dir "$dir" --pidfile "$dir/redis.pid" --logfile "$dir/redis.log"
    fi
    wait_for Redis redis-cli -p "$rport" ping
}

start_turn() {  # coturn, with time-limited credentials made from a secret it shares with the workers
    [ "$turn" = 1 ] || return 0
    command -v turnserver >/dev/null || die "coturn is not installed (apt-get install coturn), or leave ONEBOX_TURN unset"
    [ -s "$dir/turn-secret" ] || head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$dir/turn-secret"
    if ! { [ -s "$dir/turnserver.pid" ] && kill -0 "$(cat "$dir/turnserver.pid")" 2>/dev/null; }; then
        # it relays only to the players' public addresses: never into this machine's
        # own networks (loopback is refused by default), so a TURN allocation cannot
        # reach Redis, PostgreSQL or the workers
        turnserver -o -n --listening-port "$tport" --min-port "${trelays%-*}" --max-port "${trelays#*-}" \
            --use-auth-secret --static-auth-secret="$(cat "$dir/turn-secret")" --realm twmahjong \
            --fingerprint --no-cli --no-tls --no-dtls --no-multicast-peers \
            --denied-peer-ip=0.0.0.0-0.255.255.255 --denied-peer-ip=10.0.0.0-10.255.255.255 \
            --denied-peer-ip=100.64.0.0-100.127.255.255 --denied-peer-ip=169.254.0.0-169.254.255.255 \
            --denied-peer-ip=172.16.0.0-172.31.255.255 --denied-peer-ip=192.168.0.0-192.168.255.255 \
            --userdb "$dir/turndb" --pidfile "$dir/turnserver.pid" --log-file "$dir/turnserver.log" \
            --simple-log
    fi
    wait_for coturn test -s "$dir/turnserver.pid"
}

start_workers() {
    [ -x "$twmj" ] || die "$twmj not found: run 'make install' first (or set TWMJ)"
    [ -s "$dir/secret" ] || head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$dir/secret"
    local i p
    for i in $(seq "$workers"); do
        p=$((wport + i - 1))
        if [ -s "$dir/worker$i.pid" ] && kill -0 "$(cat "$dir/worker$i.pid")" 2>/dev/null; then
            continue
        fi
        if [ "$turn" = 1 ]; then     # voice at the table: STUN and TURN (UDP, and TCP for strict networks)
            export TWMJ_ICE_SERVERS="stun:$thost:$tport, turn:$thost:$tport?transport=udp, turn:$thost:$tport?transport=tcp"
            export TWMJ_TURN_SECRET; TWMJ_TURN_SECRET=$(cat "$dir/turn-secret")
        fi
        # every worker shares the secret key, the database and Redis; nginx is the
        # only proxy whose X-Forwarded-For they believe. TWMJ_ROUTE: how a client
        # reaches this worker through nginx (/ws?w=I), so a player's socket can move to
        # the worker that plays its table instead of being relayed through Redis
        TWMJ_SECRET_KEY=$(cat "$dir/secret") TWMJ_FORWARDED_ALLOW_IPS=127.0.0.1 \
            TWMJ_ROUTE="/ws?w=$i" \
            setsid nohup "$twmj" serve --host 127.0.0.1 --port "$p" --data-dir "$dir/worker$i" \
            --database "$(cat "$dir/database")" --redis "redis://127.0.0.1:$rport/0" \
            > "$dir/worker$i.log" 2>&1 < /dev/null &
        echo $! > "$dir/worker$i.pid"
    done
    for i in $(seq "$workers"); do
        wait_worker "$i" "$((wport + i - 1))"
    done
}

wait_worker() {  # wait_worker I PORT: until it is ready; at once if it exited (a taken port, say)
    local i=$1 p=$2
    for _ in $(seq 1200); do
        curl -fsS -m 10 "http://127.0.0.1:$p/readyz" >/dev/null 2>&1 && return 0
        kill -0 "$(cat "$dir/worker$i.pid")" 2>/dev/null ||
            die "worker $i exited before it was ready on port $p: $(tail -3 "$dir/worker$i.log" | tr '\n' ' ')"
        sleep 0.1
    done
    die "worker $i did not come up (see $dir/worker$i.log)"
}

write_nginx_conf() {
    local i j servers="" routes="" map="" one
    for i in $(seq "$workers"); do
        servers+="        server 127.0.0.1:$((wport + i - 1)) max_fails=1 fail_timeout=5s;"$'\n'
        # /ws?w=I goes to worker I, and to the others while it is down (its tables move)
        one="    upstream twmj_w$i {"$'\n'"        server 127.0.0.1:$((wport + i - 1)) max_fails=1 fail_timeout=5s;"$'\n'
        for j in $(seq "$workers"); do
            [ "$j" = "$i" ] || one+="        server 127.0.0.1:$((wport + j - 1)) backup;"$'\n'
        done
        routes+="$one    }"$'\n'
        map+="        $i twmj_w$i;"$'\n'
    done
    mkdir -p "$dir/nginx-tmp" && chmod 0777 "$dir/nginx-tmp"
    cat > "$dir/nginx.conf" <<EOF
# written by deploy/onebox.sh; one machine's load balancer for twmahjong
# a proxied WebSocket holds two descriptors: each worker process gets the whole
# limit this shell may give (ulimit -Hn), and there is one per core
worker_processes auto;
worker_rlimit_nofile $(ulimit -Hn);
pid $dir/nginx.pid;
error_log $dir/nginx-error.log warn;
events { worker_connections $(( $(ulimit -Hn) - 64 )); }
http {
    access_log off;
    client_body_temp_path $dir/nginx-tmp/body;
    proxy_temp_path $dir/nginx-tmp/proxy;
    fastcgi_temp_path $dir/nginx-tmp/fastcgi;
    uwsgi_temp_path $dir/nginx-tmp/uwsgi;
    scgi_temp_path $dir/nginx-tmp/scgi;
    # any worker serves any player (rooms, quick match, every table through Redis):
    # WebSockets go where the fewest are open. Without a shared zone each nginx
    # process counted only the sockets it had opened itself, and the workers were
    # loaded unevenly (four players through two nginx processes: 3 and 1)
    upstream twmj {
        zone twmj 64k;
        least_conn;
$servers    }
    # a socket that follows its table (the route in welcome and snapshot: /ws?w=I)
$routes    map \$arg_w \$twmj_up {
        default twmj;
$map    }
    map \$http_upgrade \$connection_upgrade { default upgrade; '' close; }
    # one address's open connections (WebSockets and HTTP), and slow clients cut off:
    # a request's headers and body must keep coming (slowloris holds a connection by
    # sending a byte now and then); the workers have their own limits behind these
    limit_conn_zone \$binary_remote_addr zone=per_address:10m;
    server {
        listen 127.0.0.1:$port reuseport;
        client_max_body_size 1m;
        client_header_timeout 10s;
        client_body_timeout 10s;
        send_timeout 30s;
        keepalive_timeout 30s;
        limit_conn per_address $per_address;
        limit_conn_status 429;
        # the server's own figures are for its operator only (this machine)
        location ~ ^/(metrics|readyz|api/v1/health)\$ {
            allow 127.0.0.1;
            allow ::1;
            deny all;
            proxy_pass http://twmj;
            proxy_set_header Host \$host;
            proxy_set_header X-Forwarded-For \$remote_addr;
        }
        location / {
            proxy_pass http://\$twmj_up;
            proxy_http_version 1.1;
            proxy_set_header Upgrade \$http_upgrade;
            proxy_set_header Connection \$connection_upgrade;
            proxy_set_header Host \$host;
            proxy_set_header X-Forwarded-For \$remote_addr;
            proxy_set_header X-Forwarded-Proto \$scheme;
            # a table's socket is quiet between hands; the server pings it
            proxy_read_timeout 3600s;
            # a draining or dead worker: the request goes to the next one
            proxy_next_upstream error timeout http_502 http_503;
        }
    }
}
EOF
}

start_nginx() {
    command -v nginx >/dev/null || die "nginx is not installed (apt-get install nginx-light)"
    write_nginx_conf
    : > "$dir/nginx-error.log"      # this start's messages only
    nginx -t -q -c "$dir/nginx.conf" -p "$dir" 2>>"$dir/nginx-error.log" || die "nginx refused its configuration (see $dir/nginx-error.log)"
    if [ -s "$dir/nginx.pid" ] && kill -0 "$(cat "$dir/nginx.pid")" 2>/dev/null; then
        nginx -c "$dir/nginx.conf" -p "$dir" -s reload
    else
        nginx -c "$dir/nginx.conf" -p "$dir"
    fi
    wait_for nginx curl -fsS -m 10 "http://127.0.0.1:$port/api/v1/health"
}

stop_pid() {    # stop_pid FILE SIGNAL: signal the process and wait until it is gone
    local f=$1 sig=$2 pid
    [ -s "$f" ] || return 0
    pid=$(cat "$f")
    if kill -"$sig" "$pid" 2>/dev/null; then
        for _ in $(seq 600); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null || true
    fi
    rm -f "$f"
}

case "$cmd" in
up)
    start_postgres
    start_redis
    start_turn
    start_workers
    start_nginx
    say "up: http://127.0.0.1:$port/ ($workers workers on $wport.., $(sed 's/:[^:@]*@/:***@/' "$dir/database"), redis on $rport$([ "$turn" = 1 ] && echo ", coturn on $thost:$tport"); state in $dir)"
    ;;
status)
    curl -fsS -m 10 "http://127.0.0.1:$port/api/v1/health" || die "nothing answers on $port"
    echo
    ;;
down)
    # SIGTERM drains a worker: its tables go to the others (the last one stores them)
    for f in "$dir"/worker*.pid; do [ -e "$f" ] && stop_pid "$f" TERM; done
    [ -s "$dir/nginx.pid" ] && nginx -c "$dir/nginx.conf" -p "$dir" -s quit 2>/dev/null || true
    stop_pid "$dir/turnserver.pid" TERM
    for _ in $(seq 100); do [ -s "$dir/nginx.pid" ] || break; sleep 0.1; done
    redis-cli -p "$rport" shutdown nosave >/dev/null 2>&1 || true
    if [ -z "${ONEBOX_DATABASE:-}" ] && command -v pg_lsclusters >/dev/null &&
            pg_lsclusters -h | awk '{print $2}' | grep -qx "$cluster"; then
        pg_dropcluster --stop "$(pg_version)" "$cluster"
    fi
    say "down ($dir)"
    ;;
*)
    die "usage: deploy/onebox.sh up|status|down [DIR]"
    ;;
esac
