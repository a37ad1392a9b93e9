/* SPDX-License-Identifier: MIT */
/*
 * sock.h - the `socket` workload of page_counter.c: netperf -t TCP_SENDFILE -m 10K over
 * loopback as Linux v6.0 charges it to the memcg (cgroup v2). docs/kernel-facts.md
 * ("Loopback TCP") cites each step; in short:
 *
 *  - send (the sender's CPU): sendfile() splices the message from the page cache, one pipe
 *    buffer per folio piece (10 KiB at offset k x 10240 is 4096/4096/2048 or 2048/4096/4096
 *    with 4 KiB folios); each buffer is one tcp_sendpage() (lock_sock, release_sock), whose
 *    tcp_wmem_schedule() charges the pages the copy exceeds sk_forward_alloc by (at most one
 *    page per 4 KiB buffer); a new skb first schedules its own truesize (`skb_head`);
 *  - loopback delivers the skb in NET_RX softirq on the SENDER's CPU, where tcp_data_queue
 *    charges the receiving socket's memcg for the skb's truesize (sk_rmem_schedule /
 *    sk_forced_mem_schedule) unless the receiver is in the root memcg (`receiver=root`);
 *  - the receiver (its CPU) frees each skb it reads: sock_rfree -> sk_mem_uncharge ->
 *    sk_mem_reclaim, which returns every whole page of forward allocation at once:
 *    mem_cgroup_uncharge_skmem (MEMCG_SOCK stat, refill_stock) and, before 2d0c88e84e48
 *    (v6.5), one mem_cgroup_under_socket_pressure walk (`reclaim_walk`);
 *  - the ACK frees the sender's skb the same way (tcp_clean_rtx_queue), on the CPU that
 *    processes the ACK for the sender's socket: its own (release_sock's backlog) while it
 *    runs, the receiver's while the sender sleeps in sk_stream_wait_memory (`ack=window`,
 *    the default: decided by the run's window state), or always one side (`ack=sender`,
 *    `ack=receiver`). An ACK processed while SOCK_NOSPACE is set adds one walk
 *    (tcp_check_space -> tcp_new_space -> tcp_should_expand_sndbuf ->
 *    tcp_under_memory_pressure) and clears it.
 *
 * The two sockets' sk_forward_alloc words, the in-flight bytes, the ACKed skbs and the
 * sender's NOSPACE and sleeping flags are modelled memory (struct sock_pair, one per pair).
 */
#ifndef PCBENCH_SOCK_H
#define PCBENCH_SOCK_H

#include "bench.h"
#include "memcg.h"

#define SK_PAGE 4096L
#define SOCK_JIFFIES 1000000L /* "now": past every socket_pressure deadline */

/* struct sock_pair: line 0 is the sender's socket, line 1 the receiver's. */
#define SOCK_LAYOUT                                                                                \
	"layout socket\n"                                                                          \
	"desc one loopback TCP connection: the sender's socket (line 0), the receiver's (line "    \
	"1)\n"                                                                                     \
	"struct sock_pair size 128 align 64\n"                                                     \
	"\ttx_fwd 0 8 atomic\n"                                                                    \
	"\tacked 8 8 atomic\n"                                                                     \
	"\tnospace 16 8 atomic\n"                                                                  \
	"\tasleep 24 8 atomic\n"                                                                   \
	"\trx_fwd 64 8 atomic\n"                                                                   \
	"\tpending 72 8 atomic\n"                                                                  \
	"end\n"

struct sock_pair {
	pc_word tx_fwd;	 /* the sender socket's sk_forward_alloc (bytes) */
	pc_word acked;	 /* skbs the receiver has ACKed and nobody has freed yet */
	pc_word nospace; /* SOCK_NOSPACE: the sender found its window full */
	pc_word asleep;	 /* the sender sleeps in sk_stream_wait_memory: its socket unowned */
	char pad0[32];
	pc_word rx_fwd;	 /* the receiver socket's sk_forward_alloc (bytes) */
	pc_word pending; /* bytes transmitted and not yet read */
	char pad1[48];
};

enum sock_role { SOCK_SENDER, SOCK_RECEIVER, SOCK_SELF };
enum sock_ack { ACK_WINDOW, ACK_SENDER, ACK_RECEIVER };

/* The workload's parameters, read once in setup(). */
struct sock_cfg {
	long msg;      /* bytes per sendfile() call */
	long folio;    /* page-cache folio size: the largest pipe buffer */
	long skb_head; /* truesize of a new skb before data */
	long skb_msgs; /* messages per skb */
	long window;   /* bytes in flight above which the sender waits */
	int rx_root;   /* receiver=root: the receiving socket has no memcg */
	int ack;       /* enum sock_ack */
	int walk;      /* reclaim_walk: __sk_mem_reduce_allocated walks (before 2d0c88e84e48) */
};

/* What one CPU charges through: its stock, its per-CPU stats, the memcg, the layout. */
struct sock_cpu {
	const struct memcg_offs *o;
	const struct memcg_rstat *r;
	const struct sock_cfg *c;
	struct memcg_stock *stock;
	long *state, *stats_updates;
	char *leaf;
};

/* The thread's part in its pair. */
struct sock_thread {
	struct sock_pair *sk;
	int role;
	long msgs;   /* messages this sender has sent */
	long unsent; /* truesize of the skb being built (not yet transmitted) */
};

static inline long sock_truesize(const struct sock_cfg *c)
{
	return c->skb_head + c->skb_msgs * c->msg;
}

/*
 * sk_mem_raise - __sk_mem_schedule / sk_forced_mem_schedule of @size bytes: the whole pages
 * by which @size exceeds the forward allocation are charged (mem_cgroup_charge_skmem:
 * try_charge through this CPU's stock, then MEMCG_SOCK +pages) and added to it.
 */
static inline void sk_mem_raise(const struct sock_cpu *k, pc_word *fwd, long size)
{
	long delta = size - pc_load(fwd), pages;

	if (delta <= 0)
		return;
	pages = (delta + SK_PAGE - 1) / SK_PAGE;
	try_charge_memcg(k->o, k->stock, k->leaf, pages); /* max is PAGE_COUNTER_MAX */
	mod_memcg_state(k->r, k->state, k->stats_updates, MEMCG_SOCK, pages);
	pc_add(fwd, pages * SK_PAGE);
}

/* sk_mem_charge - the bytes an skb takes from the forward allocation. */
static inline void sk_mem_charge(pc_word *fwd, long size)
{
	pc_add(fwd, -size);
}

/*
 * sk_mem_uncharge - an skb of @size bytes freed (sk_mem_uncharge, then sk_mem_reclaim):
 * once the forward allocation holds a page, all its whole pages go back in one
 * __sk_mem_reduce_allocated: mem_cgroup_uncharge_skmem (MEMCG_SOCK -pages, refill_stock)
 * and, with reclaim_walk, sk_under_memory_pressure's walk to the root. Read, then subtract:
 * during the window only one thread gives back a word's pages (the kernel: the socket's
 * lock), for tx_fwd the sender or, while it sleeps, the receiver (sock_ack).
 */
static inline void sk_mem_uncharge(const struct sock_cpu *k, pc_word *fwd, long size)
{
	long f = pc_add_return(fwd, size), pages;

	if (f < SK_PAGE)
		return;
	pages = f / SK_PAGE;
	pc_add(fwd, -pages * SK_PAGE);
	mod_memcg_state(k->r, k->state, k->stats_updates, MEMCG_SOCK, -pages);
	refill_stock(k->o, k->stock, k->leaf, pages);
	if (k->c->walk)
		mem_cgroup_under_socket_pressure(k->o, k->leaf, SOCK_JIFFIES);
}

/*
 * sock_ack - the ACKs not yet processed, on this CPU: tcp_clean_rtx_queue frees each ACKed
 * skb of the sender (one sk_mem_uncharge each); with SOCK_NOSPACE set, tcp_check_space's
 * tcp_under_memory_pressure walks once and the flag clears (the window has room again).
 */
static inline void sock_ack(const struct sock_cpu *k, struct sock_pair *sk)
{
	long n = pc_load(&sk->acked) ? pc_xchg(&sk->acked, 0) : 0;

	if (!n)
		return;
	for (long i = 0; i < n; i++)
		sk_mem_uncharge(k, &sk->tx_fwd, sock_truesize(k->c));
	if (pc_load(&sk->nospace) && pc_xchg(&sk->nospace, 0))
		mem_cgroup_under_socket_pressure(k->o, k->leaf, SOCK_JIFFIES);
}

/* wait_while - spin while *@p compares to @v as @above says; -1 once the window is over. */
static inline int sock_wait_while(pc_word *p, long v, int above)
{
	unsigned spins = 0;

	while (above ? pc_load(p) > v : pc_load(p) < v)
		if (bench_spin(&spins))
			return -1;
	return 0;
}

/*
 * sock_send - one sendfile() of `msg` bytes. Returns -1 if the measured window ended while
 * the sender waited for room.
 */
static inline int sock_send(const struct sock_cpu *k, struct sock_thread *t)
{
	const struct sock_cfg *c = k->c;
	struct sock_pair *sk = t->sk;
	long off, end, next;

	if (pc_load(&sk->pending) + c->msg > c->window) { /* sk_stream_memory_free: no */
		pc_store(&sk->nospace, 1);
		pc_store(&sk->asleep, 1);
		if (sock_wait_while(&sk->pending, c->window - c->msg, 1))
			return -1;
		pc_store(&sk->asleep, 0);
	}
	if (c->ack != ACK_RECEIVER)
		sock_ack(k, sk);	  /* lock_sock .. release_sock: the backlog's ACKs */
	if (t->msgs % c->skb_msgs == 0) { /* tcp_stream_alloc_skb + tcp_skb_entail */
		sk_mem_raise(k, &sk->tx_fwd, c->skb_head);
		sk_mem_charge(&sk->tx_fwd, c->skb_head);
		t->unsent = c->skb_head;
	}
	off = (t->msgs % c->folio) * (c->msg % c->folio) % c->folio; /* file offset k x msg */
	for (end = off + c->msg; off < end; off = next) {
		next = (off / c->folio + 1) * c->folio; /* one pipe buffer per folio piece */
		if (next > end)
			next = end;
		sk_mem_raise(k, &sk->tx_fwd, next - off); /* tcp_wmem_schedule */
		sk_mem_charge(&sk->tx_fwd, next - off);
		t->unsent += next - off;
	}
	if (++t->msgs % c->skb_msgs)
		return 0;
	/* transmitted: loopback_xmit -> __netif_rx, the receive softirq on this CPU */
	if (!c->rx_root) {
		sk_mem_raise(k, &sk->rx_fwd, sock_truesize(c));
		sk_mem_charge(&sk->rx_fwd, sock_truesize(c));
	}
	t->unsent = 0;
	pc_add(&sk->pending, c->skb_msgs * c->msg);
	return 0;
}

/* sock_recv - read one skb, free it, ACK it. -1 if the window ended while waiting. */
static inline int sock_recv(const struct sock_cpu *k, struct sock_thread *t)
{
	const struct sock_cfg *c = k->c;
	struct sock_pair *sk = t->sk;

	if (sock_wait_while(&sk->pending, c->skb_msgs * c->msg, 0))
		return -1;
	pc_add(&sk->pending, -c->skb_msgs * c->msg);
	if (!c->rx_root)
		sk_mem_uncharge(k, &sk->rx_fwd, sock_truesize(c)); /* tcp_eat_recv_skb */
	pc_add(&sk->acked, 1);
	if (c->ack == ACK_RECEIVER || (c->ack == ACK_WINDOW && pc_load(&sk->asleep)))
		sock_ack(k, sk); /* the sender's socket is not owned: softirq here */
	return 0;
}

/* sock_op - one operation: a message sent, or an skb read (SOCK_SELF: whichever is due). */
static inline int sock_op(const struct sock_cpu *k, struct sock_thread *t)
{
	int recv = t->role == SOCK_RECEIVER ||
		   (t->role == SOCK_SELF && pc_load(&t->sk->pending) >= k->c->skb_msgs * k->c->msg);

	return recv ? sock_recv(k, t) : sock_send(k, t);
}

/* sk_mem_claim - take every whole page out of @fwd at once; returns how many (teardown). */
static inline long sk_mem_claim(pc_word *fwd)
{
	long f = pc_load(fwd);

	while (f >= SK_PAGE) {
		long pages = f / SK_PAGE, seen = pc_cmpxchg(fwd, f, f - pages * SK_PAGE);

		if (seen == f)
			return pages;
		f = seen;
	}
	return 0;
}

/*
 * sock_close - after every thread stopped, this thread's share of closing the connection:
 * a sender frees the skb it was building, a receiver reads and ACKs what is in flight
 * (each skb's bytes back to its forward allocation), then each gives back the whole pages
 * of both forward allocations (sk_mem_reclaim_final; the last of the two finds them whole).
 *
 * The harness runs every thread's teardown at once, so here, unlike in the window, both
 * threads of a pair change both words together: the sender's and the receiver's reclaims
 * each read a word's pages and subtracted them, and when both read before either
 * subtracted, the pages went back twice (issue 35: "sk0.tx_fwd after teardown: got
 * -12288", usage 3 pages under the preload on every level). So closing only adds bytes
 * back, and each page given back is claimed first by one compare-and-exchange
 * (sk_mem_claim): whoever claims a page gives it back, once.
 */
static inline void sock_close(const struct sock_cpu *k, struct sock_thread *t)
{
	const struct sock_cfg *c = k->c;
	struct sock_pair *sk = t->sk;

	if (t->role != SOCK_RECEIVER && t->unsent) {
		pc_add(&sk->tx_fwd, t->unsent);
		t->unsent = 0;
	}
	if (t->role != SOCK_SENDER) {
		long n = pc_xchg(&sk->pending, 0) / (c->skb_msgs * c->msg);

		if (n && !c->rx_root)
			pc_add(&sk->rx_fwd, n * sock_truesize(c));
		n += pc_xchg(&sk->acked, 0); /* read skbs and the ACKs not yet processed */
		if (n)
			pc_add(&sk->tx_fwd, n * sock_truesize(c));
		pc_store(&sk->nospace, 0);
	}
	for (int i = 0; i < 2; i++) {
		long pages = sk_mem_claim(i ? &sk->rx_fwd : &sk->tx_fwd);

		if (pages) {
			mod_memcg_state(k->r, k->state, k->stats_updates, MEMCG_SOCK, -pages);
			refill_stock(k->o, k->stock, k->leaf, pages);
		}
	}
}

/*
 * sock_check_closed - after every thread's sock_close: nothing in flight or waiting to be
 * ACKed and both forward allocations empty (every page charged for them given back).
 * Returns 0, or -1 with "PAIR.WORD after teardown: expected 0, found V" in @note.
 */
static inline int sock_check_closed(struct sock_pair *sk, const char *pair, char *note, size_t len)
{
	const struct {
		const char *name;
		pc_word *w;
	} words[] = {{"tx_fwd", &sk->tx_fwd},
		     {"rx_fwd", &sk->rx_fwd},
		     {"pending", &sk->pending},
		     {"acked", &sk->acked}};

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		long v = pc_load(words[i].w);

		if (v) {
			snprintf(note, len, "%s.%s after teardown: expected 0, found %ld", pair,
				 words[i].name, v);
			return -1;
		}
	}
	return 0;
}

#endif
