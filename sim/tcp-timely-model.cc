// SPDX-License-Identifier: GPL-2.0
/*
 * TIMELY in ns-3 (paper and patched variants): include/dcc_timely.h driven
 * as tcp_timely.c drives it.
 *
 * Differences from the kernel glue, all on the socket side:
 *  - the RTT is ns-3's per-ACK sample (raw, see tcp-swift-model.cc); no
 *    receive stamps, so all of it is fabric delay;
 *  - the burst an ACK covers is one MSS (ns-3 has no GSO: the NIC sends
 *    segments one by one), so the engine RTT is the raw RTT less one
 *    segment's serialization at line_rate_mbps;
 *  - the rate sample is ns-3's (TcpRateOps), as rs->delivered/interval_us,
 *    its interval as tcp_rate_gen()'s (TcpDccBase::RateIntervalUs());
 *  - "no more data" is "nothing in flight after this ACK";
 *  - the destination's RTT floor (dcc_floor_sample()) has one key for the
 *    run, as Swift's (tcp-swift-model.cc).
 */
#include "dcc-models.h"
#include "plb-link.h"

#include "dcc_sim_defaults.h"

#include <algorithm>

extern "C" {
#include "dcc_basedelay.h"
#include "dcc_pacing.h"
#include "dcc_timely.h"
}

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(TcpTimelyModel);
NS_OBJECT_ENSURE_REGISTERED(TcpTimelyPatchedModel);

/* The RTT floor of the run's one destination key (see tcp-swift-model.cc). */
#define TIMELY_SIM_FLOOR_KEY 1
static struct dcc_floor g_timely_floor;

static unsigned
CeilingMbps(unsigned line, unsigned max)
{
    return max && max < line ? max : line;
}

/* timely_params_rebuild() at the module's defaults (variant as given). */
static struct timely_params
TimelyParams(uint32_t variant)
{
    u64 line = dcc_mbps_to_bytes_ps(TIMELY_DEF_line_rate_mbps);
    struct timely_params p;

    timely_params_default(&p, line);
    p.variant = variant;
    p.ewma_alpha_fx = dcc_fx_from_milli(TIMELY_DEF_ewma_alpha_permille);
    p.beta_fx = dcc_fx_from_milli(TIMELY_DEF_beta_permille);
    p.patched_beta_fx = dcc_div_u64((u64)TIMELY_DEF_patched_beta_ppm * DCC_FX_ONE, 1000000);
    p.max_dec_fx = dcc_fx_from_milli(TIMELY_DEF_max_dec_permille);
    p.t_low_us = TIMELY_DEF_t_low_us;
    p.t_high_us = TIMELY_DEF_t_high_us;
    p.min_rtt_us = TIMELY_DEF_min_rtt_us;
    p.hai_thresh = TIMELY_DEF_hai_thresh;
    p.hai_n = TIMELY_DEF_hai_n;
    p.delta_bytes_ps = (u64)TIMELY_DEF_delta_kbps * 1000 / 8;
    p.max_rate_bytes_ps = dcc_mbps_to_bytes_ps(
        CeilingMbps(TIMELY_DEF_line_rate_mbps, TIMELY_DEF_max_rate_mbps));
    p.min_rate_bytes_ps = (u64)TIMELY_DEF_min_rate_kbps * 1000 / 8;
    p.calibrate = TIMELY_DEF_calibrate;
    p.base_win_us = TIMELY_DEF_base_win_ms * 1000U;
    p.segment_bytes = TIMELY_DEF_segment_bytes;
    p.lr.cap_bytes_ps = p.max_rate_bytes_ps;
    p.lr.init_bytes_ps = p.max_rate_bytes_ps;
    p.lr.floor_bytes_ps = p.min_rate_bytes_ps;
    p.lr.win_us = TIMELY_DEF_linerate_win_ms * 1000U;
    p.lr.headroom_pct = TIMELY_DEF_linerate_headroom_pct;
    return p;
}

struct TcpTimelyModel::Impl
{
    struct timely_params p;
    struct timely_state s;
    DccPlbLink plb; /* struct dcc_plb_link */
};

TypeId
TcpTimelyModel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::TcpTimelyModel")
                            .SetParent<TcpDccBase>()
                            .SetGroupName("Internet")
                            .AddConstructor<TcpTimelyModel>();
    return tid;
}

TypeId
TcpTimelyPatchedModel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::TcpTimelyPatchedModel")
                            .SetParent<TcpTimelyModel>()
                            .SetGroupName("Internet")
                            .AddConstructor<TcpTimelyPatchedModel>();
    return tid;
}

uint32_t
TcpTimelyModel::Variant() const
{
    return TIMELY_DEF_variant;
}

uint32_t
TcpTimelyPatchedModel::Variant() const
{
    return TIMELY_VARIANT_PATCHED;
}

TcpTimelyModel::TcpTimelyModel()
    : m_impl(new Impl{})
{
}

TcpTimelyModel::TcpTimelyModel(const TcpTimelyModel& o)
    : TcpDccBase(o),
      m_impl(new Impl(*o.m_impl))
{
}

TcpTimelyModel::~TcpTimelyModel()
{
    delete m_impl;
}

Ptr<TcpCongestionOps>
TcpTimelyModel::Fork()
{
    return CopyObject<TcpTimelyModel>(this);
}

Ptr<TcpCongestionOps>
TcpTimelyPatchedModel::Fork()
{
    return CopyObject<TcpTimelyPatchedModel>(this);
}

/* timely_apply(). */
void
TcpTimelyModel::Apply(Ptr<TcpSocketState> tcb, bool fromAck)
{
    struct timely_params e;
    struct timely_state* s = &m_impl->s;
    uint32_t seg = tcb->m_segmentSize;
    uint32_t base = s->base_rtt_us ? s->base_rtt_us : SrttUs();

    timely_effective(&m_impl->p, s, &e);
    SetPacing(tcb, s->rate_bytes_ps);
    if (!fromAck)
        return;
    uint32_t cwnd = dcc_window_from_rate(s->rate_bytes_ps, std::max(base, e.t_high_us), seg,
                                         TIMELY_DEF_cwnd_gain_pct, TIMELY_MIN_CWND, 65535);
    if (tcb->m_congState >= TcpSocketState::CA_RECOVERY)
    {
        uint32_t now = tcb->GetCwndInSegments();
        uint32_t inflight = tcb->m_bytesInFlight.Get() / seg;
        if (tcb->m_congState == TcpSocketState::CA_RECOVERY)
            now = std::max(now, inflight);
        cwnd = std::clamp(now, 1U, cwnd);
    }
    tcb->m_cWnd = cwnd * seg;
}

void
TcpTimelyModel::Init(Ptr<TcpSocketState> tcb)
{
    struct timely_params e;
    struct timely_state* s = &m_impl->s;

    m_impl->p = TimelyParams(Variant());
    timely_state_init(s, &m_impl->p, 0);
    dcc_linerate_init(&s->lr);
    m_impl->plb.Init(tcb);
    timely_effective(&m_impl->p, s, &e);
    /* timely_start_rate(): the initial window over srtt (1 ms before a
     * sample), at most start_rate_permille of the ceiling. */
    u64 iw = dcc_div_u64((u64)InitialCwndPkts(tcb) * tcb->m_segmentSize * 1000000ULL,
                         SrttUs() ? SrttUs() : 1000);
    u64 start = std::min<u64>(iw, dcc_div_u64(e.max_rate_bytes_ps *
                                                  TIMELY_DEF_start_rate_permille, 1000));
    s->rate_bytes_ps = timely_clamp_rate(&e, start);
    SetPacing(tcb, s->rate_bytes_ps);
}

void
TcpTimelyModel::CongControl(Ptr<TcpSocketState> tcb,
                            const TcpRateOps::TcpRateConnection& rc,
                            const TcpRateOps::TcpRateSample& rs)
{
    struct timely_state* s = &m_impl->s;
    const struct timely_params* p = &m_impl->p;
    struct timely_params e;
    uint32_t seg = tcb->m_segmentSize;
    uint32_t rawRtt = (uint32_t)tcb->m_lastRtt.Get().GetMicroSeconds();
    uint32_t now = (uint32_t)NowUs();

    RttSample(rawRtt);
    uint32_t rateUs = RateIntervalUs(tcb, rs);
    timely_ack_line(s,
                    p,
                    now,
                    (u64)rs.m_delivered,
                    rateUs,
                    rs.m_isAppLimited,
                    tcb->m_congState == TcpSocketState::CA_RECOVERY ||
                        tcb->m_congState == TcpSocketState::CA_LOSS,
                    &e);
    if (rs.m_ackedSacked == 0)
    {
        m_impl->plb.Ack(tcb, rc, rs, SrttUs(), false, false);
        Apply(tcb, true);
        return;
    }
    uint32_t acked = rs.m_ackedSacked;
    if (!rawRtt)
    {
        s->acked_bytes = dcc_sat_u32((u64)s->acked_bytes + acked);
        m_impl->plb.Ack(tcb, rc, rs, SrttUs(), false, false);
        Apply(tcb, true);
        return;
    }
    uint32_t rtt = timely_rtt_for_engine(p, rawRtt, std::min(acked, seg));
    /* PLB's delay signal: samples above T_high (pooled). */
    bool plbAbove = rtt > e.t_high_us;
    uint32_t plbRtt = rtt, plbRef = e.t_high_us;
    if (TIMELY_DEF_rtt_min_filter && s->seg_min_rtt_us)
        rtt = std::min<uint32_t>(rtt, s->seg_min_rtt_us);
    s->seg_min_rtt_us = std::min<uint32_t>(rtt, TIMELY_SEG_MIN_MAX_US);
    uint32_t n = timely_account_acked(s, acked, TIMELY_DEF_segment_bytes,
                                      tcb->m_bytesInFlight.Get() == 0);
    uint32_t floor = 0;
    if (n)
    {
        s->seg_min_rtt_us = 0;
        /* timely_floor_sample(). */
        if (p->calibrate)
        {
            struct dcc_floor f = g_timely_floor;
            if (dcc_floor_update_key(&f, p->base_win_us, TIMELY_SIM_FLOOR_KEY, rtt, false,
                                     NowUs()))
                g_timely_floor = f;
            floor = dcc_floor_of(&f, TIMELY_SIM_FLOOR_KEY);
        }
    }
    for (uint32_t k = 0; k < n; k++)
        timely_on_completion_at(s, p, rtt, now, k == 0, floor);
    m_impl->plb.Ack(tcb, rc, rs, SrttUs(), true, plbAbove, plbRtt, plbRef);
    Apply(tcb, true);
}

void
TcpTimelyModel::LossCut(Ptr<TcpSocketState> tcb, bool rto)
{
    struct timely_params e;

    timely_effective(&m_impl->p, &m_impl->s, &e);
    timely_loss_cut_rate(&m_impl->s, &e, rto ? TIMELY_LOSS_RTO : TIMELY_LOSS_RECOVERY);
    Apply(tcb, false);
}

void
TcpTimelyModel::CwndEvent(Ptr<TcpSocketState> tcb, const TcpSocketState::TcpCAEvent_t ev)
{
    if (ev == TcpSocketState::CA_EVENT_TX_START)
        m_impl->plb.TxStart(tcb, SrttUs());
    if (ev == TcpSocketState::CA_EVENT_LOSS)
    {
        /* ns-3 raises it before it enters CA_LOSS: a timeout that follows
         * another with no ACK between finds the state CA_LOSS already. */
        m_impl->plb.Rto(tcb->m_congState == TcpSocketState::CA_LOSS ? 1 : 0);
        timely_restart(&m_impl->s);
        LossCut(tcb, true);
    }
}

void
TcpTimelyModel::CongestionStateSet(Ptr<TcpSocketState> tcb,
                                   const TcpSocketState::TcpCongState_t newState)
{
    if (newState == TcpSocketState::CA_RECOVERY && tcb->m_congState != TcpSocketState::CA_RECOVERY)
        LossCut(tcb, false);
}

uint32_t
TcpTimelyModel::GetSsThresh(Ptr<const TcpSocketState> tcb, uint32_t bytesInFlight [[maybe_unused]])
{
    return std::max(tcb->GetCwndInSegments() >> 1, 2U) * tcb->m_segmentSize;
}

} // namespace ns3
