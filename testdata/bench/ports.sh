# free_port prints a loopback port nothing listens on; sourced by targets.sh and load.sh.
# Ports are drawn below the kernel's ephemeral range: a port inside it can be the local end of a
# live client socket, which refuses a connect (so it looks free) yet makes a bind to it fail.
EPHEMERAL_LOW=$(cut -f1 /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)
free_port() {
	local p i
	for i in $(seq 1 50); do
		p=$((10000 + RANDOM % (EPHEMERAL_LOW - 10000)))
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
			echo "$p"
			return 0
		fi
	done
	echo "free_port: no free port found" >&2
	return 1
}
