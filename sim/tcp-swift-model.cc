// SPDX-License-Identifier: GPL-2.0
/*
 * Swift in ns-3: include/dcc_swift.h driven as tcp_swift.c drives it.
 *
 * Differences from the kernel glue, all on the socket side:
 *  - the delay sample is ns-3's per-ACK RTT (the simulator sets the RTT
 *    estimator's gain to 1 so tcb->m_lastRtt is the raw sample, as
 *    rs->rtt_us is); there are no NIC receive stamps, so the whole RTT is
 *    fabric delay and the endpoint window gets no sample (tstamp=off);
 *  - the RTT floor: one destination key for the whole run (the glue keys
 *    a floor by peer address and netns; every destination of a sim
 *    topology has the same base RTT);
 *  - ns-3 calls CongControl on the receiving side too, where the kernel
 *    never reaches cong_control (nothing outstanding): skipped
 *    (KernelCongControl()), or the receivers' handshake RTT, a small
 *    packet's, became the floor: at 100 Mbit/s 3 x 121 us below a data
 *    packet's base RTT, so the flows sat at their target at an empty
 *    queue (0.69 utilization with 4 flows);
 *  - the delay sample is taken only from an ACK that advanced snd_una and
 *    acknowledged no retransmitted data (FreshRttUs(): ns-3 keeps the
 *    previous sample in m_lastRtt otherwise, the kernel gives none);
 *  - "window limited" follows tcp_is_cwnd_limited() (CwndLimited(): the
 *    per-round latch of tcp_cwnd_validate() and the slow-start clause),
 *    judged at the ACK rather than at transmit time.
 */
#include "dcc-models.h"
#include "plb-link.h"

#include "dcc_sim_defaults.h"

#include <algorithm>

extern "C" {
#include "dcc_pacing.h"
#include "dcc_swift.h"
}

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(TcpSwiftModel);

static struct swift_params g_swift_p;
/* The RTT floor of the run's one destination key (the glue keys a floor
 * by peer address and netns; every destination of a sim topology has the
 * same base RTT, and the bench dumbbell has one destination). */
#define SWIFT_SIM_FLOOR_KEY 1
static struct dcc_floor g_swift_floor;
static uint32_t g_swift_min_fx = ~0U;

/* swift_params_rebuild() at the module's defaults. */
static void
SwiftParamsBuild()
{
    struct swift_params p = {};

    p.ai_fx = dcc_fx_from_milli(SWIFT_DEF_ai_mpkt);
    p.beta_fx = dcc_fx_from_milli(SWIFT_DEF_md_beta_permille);
    p.max_mdf_fx = dcc_fx_from_milli(SWIFT_DEF_max_mdf_permille);
    p.min_cwnd_fx = dcc_max_u32(dcc_fx_from_milli(SWIFT_DEF_min_cwnd_mpkt), 1);
    p.max_cwnd_fx = SWIFT_DEF_max_cwnd_pkts << DCC_FX_SHIFT;
    p.base_target_us = SWIFT_DEF_base_target_us;
    p.per_hop_ns = SWIFT_DEF_per_hop_ns;
    p.fs_range_us = SWIFT_DEF_fs_range_us;
    p.fs_min_cwnd_fx = dcc_max_u32(dcc_fx_from_milli(SWIFT_DEF_fs_min_cwnd_mpkt), 1);
    p.fs_max_cwnd_fx = SWIFT_DEF_fs_max_cwnd_pkts << DCC_FX_SHIFT;
    p.ep_target_us = SWIFT_DEF_ep_target_us;
    p.ep_ewma_keep_fx = dcc_fx_from_milli(SWIFT_DEF_ep_ewma_keep_permille);
    p.retx_reset = SWIFT_DEF_retx_reset_threshold;
    p.minrtt_win_us = SWIFT_DEF_minrtt_win_ms * 1000;
    p.scale_rtt_us = SWIFT_DEF_scale_rtt_us;
    p.target_rel_minrtt = SWIFT_DEF_target_rel_minrtt;
    swift_params_derive(&p);
    g_swift_p = p;
}

struct TcpSwiftModel::Impl
{
    struct swift_state s;
    DccPlbLink plb; /* struct dcc_plb_link */
};

TypeId
TcpSwiftModel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::TcpSwiftModel")
                            .SetParent<TcpDccBase>()
                            .SetGroupName("Internet")
                            .AddConstructor<TcpSwiftModel>();
    return tid;
}

TcpSwiftModel::TcpSwiftModel()
    : m_impl(new Impl{})
{
    static bool built = false;
    if (!built)
    {
        SwiftParamsBuild();
        built = true;
    }
}

TcpSwiftModel::TcpSwiftModel(const TcpSwiftModel& o)
    : TcpDccBase(o),
      m_impl(new Impl(*o.m_impl))
{
}

TcpSwiftModel::~TcpSwiftModel()
{
    delete m_impl;
}

Ptr<TcpCongestionOps>
TcpSwiftModel::Fork()
{
    return CopyObject<TcpSwiftModel>(this);
}

uint32_t
TcpSwiftModel::MinCwndMpkt()
{
    if (g_swift_min_fx == ~0U)
        return 0;
    return (uint32_t)(((uint64_t)g_swift_min_fx * 1000 + DCC_FX_ONE / 2) >> DCC_FX_SHIFT);
}

/* swift_apply(). */
void
TcpSwiftModel::Apply(Ptr<TcpSocketState> tcb)
{
    struct swift_state* s = &m_impl->s;
    uint32_t cwnd_fx = swift_cwnd_fx(s);
    bool paced = cwnd_fx < (SWIFT_MIN_TCP_CWND << DCC_FX_SHIFT);
    uint32_t gain = paced ? 100 : SWIFT_DEF_pacing_headroom_pct;
    uint32_t cwnd = std::max<uint32_t>(swift_cwnd_pkts(s), SWIFT_MIN_TCP_CWND);

    g_swift_min_fx = std::min(g_swift_min_fx, cwnd_fx);
    tcb->m_cWnd = cwnd * tcb->m_segmentSize;
    if (!SrttUs())
        return;
    uint32_t rtt = swift_pacing_rtt_us(s, &g_swift_p, SrttUs());
    SetPacing(tcb, dcc_rate_from_window(cwnd_fx, tcb->m_segmentSize, rtt, gain));
}

void
TcpSwiftModel::Init(Ptr<TcpSocketState> tcb)
{
    swift_state_init(&m_impl->s, &g_swift_p, InitialCwndPkts(tcb), SWIFT_DEF_hops, NowUs());
    m_impl->plb.Init(tcb);
    Apply(tcb);
}

void
TcpSwiftModel::CongControl(Ptr<TcpSocketState> tcb,
                           const TcpRateOps::TcpRateConnection& rc,
                           const TcpRateOps::TcpRateSample& rs)
{
    struct swift_state* s = &m_impl->s;
    bool above = false;
    uint32_t seg = tcb->m_segmentSize;

    if (!KernelCongControl(rs))
        return;
    uint32_t acked = rs.m_ackedSacked / seg;
    uint32_t rtt = FreshRttUs(tcb);
    struct swift_ack a = {};
    struct dcc_floor f = g_swift_floor;

    RttSample(rtt);
    a.now_us = NowUs();
    /* No timeout outstanding once the connection left CA_LOSS (the
     * kernel's icsk_retransmits back at 0). */
    a.timeouts_cleared = tcb->m_congState != TcpSocketState::CA_LOSS;
    a.srtt_us = SrttUs();
    a.num_acked = acked;
    a.has_delay = rtt > 0;
    a.delay_us = rtt;
    a.has_ep_delay = false;
    a.app_limited = swift_app_limited(s, CwndLimited(tcb, rs), rs.m_isAppLimited);
    a.ack_delayed = swift_ack_maybe_delayed(false, rs.m_priorInFlight / seg, acked, rtt,
                                            dcc_floor_of(&f, SWIFT_SIM_FLOOR_KEY),
                                            SWIFT_DEF_delack_guard_us);
    a.delack_us = SWIFT_DEF_delack_guard_us;
    /* dcc_floor_sample(). */
    if (a.has_delay && dcc_floor_update_key(&f, g_swift_p.minrtt_win_us, SWIFT_SIM_FLOOR_KEY,
                                            a.delay_us, a.ack_delayed, a.now_us))
        g_swift_floor = f;
    a.floor_us = dcc_floor_of(&f, SWIFT_SIM_FLOOR_KEY);
    swift_on_ack(s, &g_swift_p, &a);
    /* PLB's delay signal: samples at or above the target (pooled). */
    bool has_sample = swift_plb_sample(s, &a, &above);
    m_impl->plb.Ack(tcb, rc, rs, SrttUs(), has_sample, above, s->last_delay_us,
                    s->last_target_us);
    Apply(tcb);
}

void
TcpSwiftModel::CwndEvent(Ptr<TcpSocketState> tcb, const TcpSocketState::TcpCAEvent_t ev)
{
    /* swift_cwnd_event(): dcc_plb_link_event(). */
    if (ev == TcpSocketState::CA_EVENT_TX_START)
        m_impl->plb.TxStart(tcb, SrttUs());
    /* Timeouts are counted in CongestionStateSet(CA_LOSS), as the glue's
     * set_state(TCP_CA_Loss) does: ns-3 enters it on every timeout. */
}

void
TcpSwiftModel::CongestionStateSet(Ptr<TcpSocketState> tcb,
                                  const TcpSocketState::TcpCongState_t newState)
{
    /* tcb->m_congState is still the state before this one. */
    TcpSocketState::TcpCongState_t old = tcb->m_congState;

    if (newState == TcpSocketState::CA_LOSS)
    {
        /* CA_EVENT_LOSS, raised by tcp_enter_loss() on an episode's first
         * timeout: PLB judges it (a pause after a failure). */
        if (old != TcpSocketState::CA_LOSS)
            m_impl->plb.Rto(0);
        /* swift_set_state(TCP_CA_Loss): one timeout; a new loss episode
         * unless the connection was already recovering. */
        if (swift_on_rto(&m_impl->s, &g_swift_p, NowUs(), SrttUs(),
                         old != TcpSocketState::CA_LOSS &&
                             old != TcpSocketState::CA_RECOVERY,
                         SWIFT_DEF_delack_guard_us))
            Apply(tcb);
        return;
    }
    if (newState == TcpSocketState::CA_RECOVERY && old != TcpSocketState::CA_RECOVERY &&
        swift_on_fast_recovery(&m_impl->s, &g_swift_p, NowUs(), SrttUs(),
                               SWIFT_DEF_delack_guard_us))
        Apply(tcb);
}

/* swift_ssthresh(). */
uint32_t
TcpSwiftModel::GetSsThresh(Ptr<const TcpSocketState> tcb, uint32_t bytesInFlight [[maybe_unused]])
{
    uint32_t cut = DCC_FX_ONE - g_swift_p.max_mdf_fx;
    uint32_t pk = std::max<uint32_t>(dcc_fx_mul(swift_cwnd_fx(&m_impl->s), cut) >> DCC_FX_SHIFT, 2U);
    return pk * tcb->m_segmentSize;
}

} // namespace ns3
