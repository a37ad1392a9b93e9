// SPDX-License-Identifier: MIT
/*
 * test_socket.c - page_counter's `socket` and `stocked_xcpu` workloads against hand counts,
 * through the accessor layer (tracing build). Two thread states on this one OS thread,
 * thread 0 the sender and thread 1 the receiver, alternate one operation each: a message
 * sent, then that message's skb read. The sender never finds its window full, so with
 * ack=window it processes the ACKs itself, at its next message.
 *
 * One message with the defaults (msg 10240, folio 4096, skb_head 1280, one skb per
 * message, truesize T = 11520): the skb head and the three pipe buffers (4096/4096/2048 at
 * an even message, 2048/4096/4096 at an odd one) leave the sender's forward allocation at
 * 768 bytes after each message, so each message raises it by exactly 3 calls of one page
 * (the 2048-byte buffer fits in what is left); the rx charge (softirq, sender's CPU) is 1
 * call of 3 pages (the receiver's forward allocation goes 0 -> 12288 - 11520); freeing the
 * rx skb (receiver) and, at the next message, the ACKed tx skb (sender) each bring a
 * forward allocation to 12288 bytes: 1 uncharge of 3 pages and 1 socket-pressure walk each.
 *
 * Stocks, batch 32: the receiver's takes 3 pages per message and drains at 33, every 11
 * messages. The sender's gets +3 (the ACKed skb, first) and -6 per message: after a miss
 * (a 32-page charge) it serves 9 or 10 messages, then the rx charge misses once more, and
 * the refill after that second miss overflows it (more than 32 pages: the whole stock
 * goes back); so every 10 messages 2 hierarchical charges and 1 drain: in 110 messages 22
 * charges and 11 drains (sender), 10 drains (receiver). Batch 64: 462 messages hold 44
 * charges and 22 drains (sender), 21 drains (receiver, every 22 messages).
 *
 * The teardown race (issue 35): the harness runs the sender's and the receiver's
 * thread_teardown at once. Here the sender's whole teardown runs inside the receiver's, just
 * before the receiver's first write that gives tx_fwd's pages back (after it read them):
 * the forward allocations must still end empty and every level's usage at the preload
 * (window_end), with each ACK mode.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "check.h"
#include "scenario_inst.h"

enum { W_TX, W_RX, NW };	 /* tx_fwd, rx_fwd */
enum { S_RAISE, S_RECLAIM, NS }; /* sk_mem_raise, sk_mem_uncharge's add */
enum { U_CHARGE, U_DRAIN, NU };	 /* leaf memory.usage: try_charge, cancel */

static struct {
	const volatile void *fwd[NW], *sp_leaf, *leaf_usage;
	int cur; /* 0 sender, 1 receiver */
	long adds[2][NW][NS], walks[2], usage[2][NU];
} tr;

static void hook(enum pc_op op, const volatile void *addr, unsigned size, const char *site)
{
	(void)size;
	for (int w = 0; w < NW; w++)
		if (addr == tr.fwd[w] && op == PC_OP_ADD) {
			if (!strcmp(site, "sk_mem_raise"))
				tr.adds[tr.cur][w][S_RAISE]++;
			else if (!strcmp(site, "sk_mem_uncharge"))
				tr.adds[tr.cur][w][S_RECLAIM]++;
		}
	if (addr == tr.sp_leaf && op == PC_OP_LOAD)
		tr.walks[tr.cur]++;
	if (addr == tr.leaf_usage && op == PC_OP_ADD_RETURN)
		tr.usage[tr.cur][strcmp(site, "page_counter_try_charge") ? U_DRAIN : U_CHARGE]++;
}

static const struct bench_object *obj_named(const struct inst *in, const char *name)
{
	for (int i = 0; i < in->nobj; i++)
		if (!strcmp(in->obj[i].name, name))
			return &in->obj[i];
	fprintf(stderr, "FAIL: no object %s\n", name);
	exit(1);
}

static void messages(struct inst *in, void *rx, long k)
{
	for (long m = 0; m < k; m++) {
		tr.cur = 0;
		CHECK_EQ("sender ops", in->sc->run(in->shared, in->ts, 1), 1);
		tr.cur = 1;
		CHECK_EQ("receiver ops", in->sc->run(in->shared, rx, 1), 1);
	}
}

/*
 * Expected per P messages, thread t (0 sender, 1 receiver): tx charges, rx charges, tx
 * uncharges, rx uncharges, walks, hierarchical charges and stock drains.
 */
struct expect {
	const char *user[3];
	long txc[2], rxc[2], txu[2], rxu[2], walks[2];
	int stock; /* check the stock counts of the default case */
};

static const struct expect cases[] = {
    {{"ack=window"}, {3, 0}, {1, 0}, {1, 0}, {0, 1}, {1, 1}, 1},
    {{"ack=sender"}, {3, 0}, {1, 0}, {1, 0}, {0, 1}, {1, 1}, 1},
    {{"ack=receiver"}, {3, 0}, {1, 0}, {0, 1}, {0, 1}, {0, 2}, 0},
    {{"receiver=root"}, {3, 0}, {0, 0}, {1, 0}, {0, 0}, {1, 0}, 0},
    {{"reclaim_walk=off"}, {3, 0}, {1, 0}, {1, 0}, {0, 1}, {0, 0}, 1},
};

static void test_case(const char *preset, const struct expect *e)
{
	char *user[3] = {(char *)e->user[0], NULL, NULL};
	char what[300];
	struct inst in;
	long batch, P;
	void *rx;
	const struct bench_object *sk;

	if (inst_open(&in, "page_counter", preset, "socket", 2, user, 1, 1)) {
		inst_close(&in);
		return;
	}
	batch = bench_long(in.cfg, "batch");
	P = batch == 32 ? 110 : 462;
	sk = obj_named(&in, "sk0");
	tr.fwd[W_TX] = obj_word(sk, "tx_fwd");
	tr.fwd[W_RX] = obj_word(sk, "rx_fwd");
	tr.sp_leaf = obj_word(obj_named(&in, "L3"), "socket_pressure");
	tr.leaf_usage = obj_word(obj_named(&in, "L3"), "memory.usage");
	rx = scenario_thread_setup(in.sc, in.shared, 1);
	messages(&in, rx, P); /* warm-up: the stocks reach their cycle */
	memset(tr.adds, 0, sizeof(tr.adds));
	memset(tr.walks, 0, sizeof(tr.walks));
	memset(tr.usage, 0, sizeof(tr.usage));
	pc_trace_hook = hook;
	messages(&in, rx, P);
	pc_trace_hook = NULL;
	for (int t = 0; t < 2; t++) {
		const char *who = t ? "receiver" : "sender";
		const struct {
			const char *what;
			long got, exp;
		} rows[] = {
		    {"tx charges", tr.adds[t][W_TX][S_RAISE], e->txc[t] * P},
		    {"rx charges", tr.adds[t][W_RX][S_RAISE], e->rxc[t] * P},
		    {"tx uncharges", tr.adds[t][W_TX][S_RECLAIM], e->txu[t] * P},
		    {"rx uncharges", tr.adds[t][W_RX][S_RECLAIM], e->rxu[t] * P},
		    {"socket-pressure walks", tr.walks[t], e->walks[t] * P},
		};

		for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
			snprintf(what, sizeof(what), "%s %s: %s %s in %ld messages", preset,
				 e->user[0], who, rows[i].what, P);
			CHECK_EQ(what, rows[i].got, rows[i].exp);
		}
	}
	if (e->stock) {
		const long exp[2][NU] = {{batch == 32 ? 22 : 44, batch == 32 ? 11 : 22},
					 {0, batch == 32 ? 10 : 21}};

		for (int t = 0; t < 2; t++)
			for (int u = 0; u < NU; u++) {
				snprintf(what, sizeof(what), "%s %s: %s %s in %ld messages", preset,
					 e->user[0], t ? "receiver" : "sender",
					 u ? "stock drains" : "hierarchical charges", P);
				CHECK_EQ(what, tr.usage[t][u], exp[t][u]);
			}
	}
	scenario_thread_teardown(in.sc, in.shared, rx);
	inst_close(&in);
}

/*
 * stocked_xcpu, nr 1: the charger's stock misses once per `batch` charges (a batch charge
 * serves batch - 1 more), the uncharger's drains once per batch + 1 pages (refill_stock
 * drains above batch): in 32 x 33 = 1056 operations each, batch 32, 33 misses and 32 drains.
 */
static void test_xcpu(const char *preset)
{
	char *user[1] = {"burst=64"};
	char what[300];
	struct inst in;
	void *rx;
	long batch, P;

	if (inst_open(&in, "page_counter", preset, "stocked_xcpu", 2, user, 1, 1)) {
		inst_close(&in);
		return;
	}
	batch = bench_long(in.cfg, "batch");
	P = batch * (batch + 1);
	tr.leaf_usage = obj_word(obj_named(&in, "L3"), "memory.usage");
	tr.fwd[W_TX] = tr.fwd[W_RX] = tr.sp_leaf = NULL;
	rx = scenario_thread_setup(in.sc, in.shared, 1);
	messages(&in, rx, P);
	memset(tr.usage, 0, sizeof(tr.usage));
	pc_trace_hook = hook;
	messages(&in, rx, P);
	pc_trace_hook = NULL;
	snprintf(what, sizeof(what), "%s stocked_xcpu: charger misses in %ld ops", preset, P);
	CHECK_EQ(what, tr.usage[0][U_CHARGE], batch + 1);
	snprintf(what, sizeof(what), "%s stocked_xcpu: uncharger drains in %ld ops", preset, P);
	CHECK_EQ(what, tr.usage[1][U_DRAIN], batch);
	snprintf(what, sizeof(what), "%s stocked_xcpu: charger drains", preset);
	CHECK_EQ(what, tr.usage[0][U_DRAIN], 0);
	scenario_thread_teardown(in.sc, in.shared, rx);
	inst_close(&in);
}

/* The teardown race: the sender's teardown inside the receiver's give-back of tx_fwd. */
static struct inst race_in;
static int race_done;

static void race_hook(enum pc_op op, const volatile void *addr, unsigned size, const char *site)
{
	(void)size;
	if (race_done || addr != tr.fwd[W_TX] ||
	    !(op == PC_OP_CMPXCHG || (op == PC_OP_ADD && !strcmp(site, "sk_mem_uncharge"))))
		return;
	race_done = 1;
	scenario_thread_teardown(race_in.sc, race_in.shared, race_in.ts);
	race_in.ts = NULL;
}

static void test_teardown_race(const char *preset, const char *ack, const char *receiver)
{
	char *user[2] = {(char *)ack, (char *)receiver}, note[512] = "";
	void *rx;

	if (inst_open(&race_in, "page_counter", preset, "socket", 2, user, 2, 1)) {
		inst_close(&race_in);
		return;
	}
	tr.fwd[W_TX] = obj_word(obj_named(&race_in, "sk0"), "tx_fwd");
	rx = scenario_thread_setup(race_in.sc, race_in.shared, 1);
	tr.cur = 0;
	race_in.sc->run(race_in.shared, race_in.ts, 1); /* the sender a message ahead */
	messages(&race_in, rx, 7); /* skbs in flight, ACKs not processed, pages on tx_fwd */
	race_done = 0;
	pc_trace_hook = race_hook;
	scenario_thread_teardown(race_in.sc, race_in.shared, rx);
	pc_trace_hook = NULL;
	CHECK(race_done, "%s %s %s: the sender's teardown did not run inside the receiver's",
	      preset, ack, receiver);
	CHECK(!race_in.sc->window_end(race_in.shared, note, sizeof(note)),
	      "%s %s %s: teardowns interleaved: %s", preset, ack, receiver, note);
	inst_close(&race_in);
}

int main(int argc, char **argv)
{
	static const char *const presets[] = {"v6.0-rc1", "+A", "+B", "+C", "+ABC"};

	(void)argc;
	(void)argv;
	for (size_t p = 0; p < ARRAY_SIZE(presets); p++) {
		for (size_t c = 0; c < ARRAY_SIZE(cases); c++)
			test_case(presets[p], &cases[c]);
		test_xcpu(presets[p]);
		test_teardown_race(presets[p], "ack=sender", "receiver=root");
		test_teardown_race(presets[p], "ack=window", "receiver=same");
		test_teardown_race(presets[p], "ack=receiver", "receiver=same");
	}
	if (failures) {
		fprintf(stderr, "test_socket: %d failure(s)\n", failures);
		return 1;
	}
	printf("test_socket: all checks passed\n");
	return 0;
}
