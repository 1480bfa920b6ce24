// SPDX-License-Identifier: GPL-2.0
/*
 * dccsim: one scenario, every congestion control named, one table.
 * Each cc runs the same topology, workload and seed in a fresh simulator.
 * See Documentation/simulation.rst.
 */
#include "dcc-models.h"
#include "plb-link.h"

#include "dcc_sim_defaults.h"

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-apps-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <unordered_set>
#include <random>
#include <fstream>
#include <tuple>
#include <vector>

#include <unistd.h>

using namespace ns3;

/* A connection's PLB label on each of its data segments (its txhash, the
 * IPv6 flow label a switch hashes). */
class FlowLabelTag : public Tag
{
  public:
    uint32_t label = 0;
    static TypeId GetTypeId()
    {
        static TypeId tid =
            TypeId("dccsim::FlowLabelTag").SetParent<Tag>().AddConstructor<FlowLabelTag>();
        return tid;
    }
    TypeId GetInstanceTypeId() const override { return GetTypeId(); }
    uint32_t GetSerializedSize() const override { return 4; }
    void Serialize(TagBuffer i) const override { i.WriteU32(label); }
    void Deserialize(TagBuffer i) override { label = i.ReadU32(); }
    void Print(std::ostream& os) const override { os << "label=" << label; }
};

/* The socket's TcpSocketState (protected in TcpSocketBase). */
struct TcbOf : public TcpSocketBase
{
    static const TcpSocketState* Get(const TcpSocketBase* s)
    {
        return PeekPointer(s->*(&TcbOf::m_tcb));
    }
};

/* TcpSocketBase::SendRST() (protected): the connection ends now. */
struct SockReset : public TcpSocketBase
{
    static void Reset(Ptr<TcpSocketBase> s)
    {
        if (s)
            (PeekPointer(s)->*(&SockReset::SendRST))();
    }
};

static uint64_t g_labelled;
/* Every sender's "Tx" trace: tag the segment with its connection's label. */
static void TagTx(Ptr<const Packet> p, const TcpHeader&, Ptr<const TcpSocketBase> sock)
{
    uint32_t l = DccPlbLabel(TcbOf::Get(PeekPointer(sock)));
    if (!l)
        return;
    FlowLabelTag t;
    t.label = l;
    const_cast<Packet*>(PeekPointer(p))->ReplacePacketTag(t); /* a fresh segment */
    g_labelled++;
}

/*
 * Flow-hash ECMP on a leaf: a packet for another leaf goes up the spine
 * a hash of its 5-tuple picks (every packet of a connection on one path,
 * as a switch's ECMP does; ns-3's own RandomEcmpRouting picks per
 * packet).  Everything else falls through to global routing.  Added to a
 * leaf's list routing above global routing.  On a fat-tree an edge
 * switch hashes over its aggregation switches and an aggregation switch
 * over its cores, each switch with its own salt (as switches seed their
 * hash differently, so that the two stages do not choose alike).
 */
class FlowHashEcmp : public Ipv4RoutingProtocol
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("dccsim::FlowHashEcmp").SetParent<Ipv4RoutingProtocol>();
        return tid;
    }
    struct Up
    {
        uint32_t ifIndex;
        Ipv4Address nextHop;
    };
    std::vector<Up> ups;
    std::unordered_set<uint32_t> local; /* hosts below this switch: global routing */
    uint32_t salt = 0;
    static uint64_t s_routed;

    bool RouteInput(Ptr<const Packet> p, const Ipv4Header& h, Ptr<const NetDevice>,
                    UnicastForwardCallback ucb, MulticastForwardCallback, LocalDeliverCallback,
                    ErrorCallback) override
    {
        Ipv4Address dst = h.GetDestination();
        /* (A packet for the switch itself never gets here: the list
         * routing, or TableRouting, delivers it first.) */
        if (ups.empty() || local.count(dst.Get()))
            return false;
        uint8_t ports[4] = {0, 0, 0, 0};
        if (p->GetSize() >= 4)
            p->CopyData(ports, 4);
        FlowLabelTag lt;
        uint64_t label = p->PeekPacketTag(lt) ? lt.label : 0;
        uint64_t x = ((uint64_t)h.GetSource().Get() << 32 | dst.Get()) ^
                     ((uint64_t)h.GetProtocol() << 56) ^
                     ((uint64_t)ports[0] << 24 | ports[1] << 16 | ports[2] << 8 | ports[3]) ^ salt ^
                     (label * 0x9e3779b97f4a7c15ULL);
        x ^= x >> 33;
        x *= 0xff51afd7ed558ccdULL;
        x ^= x >> 33;
        const Up& u = ups[x % ups.size()];
        Ptr<Ipv4Route> r = Create<Ipv4Route>();
        r->SetDestination(dst);
        r->SetGateway(u.nextHop);
        r->SetSource(m_ipv4->GetAddress(u.ifIndex, 0).GetLocal());
        r->SetOutputDevice(m_ipv4->GetNetDevice(u.ifIndex));
        s_routed++;
        ucb(r, p, h);
        return true;
    }
    Ptr<Ipv4Route> RouteOutput(Ptr<Packet>, const Ipv4Header&, Ptr<NetDevice>,
                               Socket::SocketErrno& err) override
    {
        err = Socket::ERROR_NOROUTETOHOST;
        return nullptr;
    }
    void NotifyInterfaceUp(uint32_t) override {}
    void NotifyInterfaceDown(uint32_t) override {}
    void NotifyAddAddress(uint32_t, Ipv4InterfaceAddress) override {}
    void NotifyRemoveAddress(uint32_t, Ipv4InterfaceAddress) override {}
    void SetIpv4(Ptr<Ipv4> ipv4) override { m_ipv4 = ipv4; }
    void PrintRoutingTable(Ptr<OutputStreamWrapper>, Time::Unit) const override {}

  private:
    Ptr<Ipv4> m_ipv4;
};

uint64_t FlowHashEcmp::s_routed = 0;

/*
 * Routes in hash tables (--routing=table, the default): every switch maps
 * each host's address to the port of a shortest path towards it, every
 * host sends everything up its one link.  ns-3's global routing keeps one
 * route per link subnet and scans them for every packet at every hop
 * (and the list routing above it scans every interface of the node for a
 * local address): on a 5000-port incast switch both scans are 5000 long.
 * Here a lookup is one hash probe.  Replaces the node's routing protocol
 * outright; the flow-hash ECMP of a switch, when it has one, is asked
 * first, as it sits above global routing in the list.
 */
class TableRouting : public Ipv4RoutingProtocol
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("dccsim::TableRouting").SetParent<Ipv4RoutingProtocol>();
        return tid;
    }
    std::unordered_map<uint32_t, FlowHashEcmp::Up> routes; /* host address -> port */
    std::unordered_set<uint32_t> own;                      /* this node's addresses */
    bool hasDefault = false;
    FlowHashEcmp::Up deflt{};
    Ptr<FlowHashEcmp> ecmp;

    bool RouteInput(Ptr<const Packet> p, const Ipv4Header& h, Ptr<const NetDevice> idev,
                    UnicastForwardCallback ucb, MulticastForwardCallback mcb, LocalDeliverCallback lcb,
                    ErrorCallback ecb) override
    {
        Ipv4Address dst = h.GetDestination();
        if (own.count(dst.Get()))
        {
            lcb(p, h, m_ipv4->GetInterfaceForDevice(idev));
            return true;
        }
        if (ecmp && ecmp->RouteInput(p, h, idev, ucb, mcb, lcb, ecb))
            return true;
        const FlowHashEcmp::Up* u = Find(dst);
        if (!u)
            return false;
        ucb(Make(*u, dst), p, h);
        return true;
    }
    Ptr<Ipv4Route> RouteOutput(Ptr<Packet>, const Ipv4Header& h, Ptr<NetDevice>,
                               Socket::SocketErrno& err) override
    {
        const FlowHashEcmp::Up* u = Find(h.GetDestination());
        if (!u)
        {
            err = Socket::ERROR_NOROUTETOHOST;
            return nullptr;
        }
        err = Socket::ERROR_NOTERROR;
        return Make(*u, h.GetDestination());
    }
    void NotifyInterfaceUp(uint32_t) override {}
    void NotifyInterfaceDown(uint32_t) override {}
    void NotifyAddAddress(uint32_t, Ipv4InterfaceAddress) override {}
    void NotifyRemoveAddress(uint32_t, Ipv4InterfaceAddress) override {}
    void SetIpv4(Ptr<Ipv4> ipv4) override { m_ipv4 = ipv4; }
    void PrintRoutingTable(Ptr<OutputStreamWrapper>, Time::Unit) const override {}

  private:
    const FlowHashEcmp::Up* Find(Ipv4Address dst) const
    {
        auto it = routes.find(dst.Get());
        if (it != routes.end())
            return &it->second;
        return hasDefault ? &deflt : nullptr;
    }
    Ptr<Ipv4Route> Make(const FlowHashEcmp::Up& u, Ipv4Address dst) const
    {
        Ptr<Ipv4Route> r = Create<Ipv4Route>();
        r->SetDestination(dst);
        r->SetGateway(u.nextHop);
        r->SetSource(m_ipv4->GetAddress(u.ifIndex, 0).GetLocal());
        r->SetOutputDevice(m_ipv4->GetNetDevice(u.ifIndex));
        return r;
    }
    Ptr<Ipv4> m_ipv4;
};

struct Opts
{
    std::vector<std::string> ccs;
    std::string topo = "dumbbell";
    std::string workload = "bulk";
    uint32_t hosts = 8;       /* senders */
    double rateGbps = 10;     /* every link */
    uint32_t delayUs = 2;     /* every link, one way */
    uint32_t bufferPkts = 600; /* per switch port */
    uint32_t ecnK = 65;       /* step marking threshold, packets */
    double durationMs = 50;   /* bulk: simulated time */
    uint32_t incastKb = 64;   /* incast: bytes per sender, KB */
    uint32_t leaves = 2, spines = 2;
    std::string ecmp = "flowhash";
    std::string routing = "table"; /* table: hash of host routes; global: ns-3's */
    std::string aqm = "auto";  /* auto: step marking for ECN ccs; fifo: never marks */
    double accessGbps = 0;     /* bed: the client's link (0: 10 Gbit/s) */
    double pingHz = 0;         /* >0: RTT columns from pings, sender 0 -> its receiver */
    uint32_t seed = 1;
    bool quiet = false;
    bool plb = false; /* net.dcc_plb.enabled for swift and timely */
    uint32_t k = 4;           /* fat-tree: k pods, k-port switches, k^3/4 hosts */
    uint32_t redKmax = 0;     /* aqm=red: Kmax, packets (0: 4 x K) */
    double redPmax = 0.01;    /* aqm=red: mark probability at Kmax */
    double junosFill = 10;    /* aqm=junos: ECN fill level, % of the buffer */
    double load = 50;         /* open: offered load per host link, % */
    std::string cdf = "websearch";
    std::string dump;         /* prefix of the per-cc data files for the plots */
    double stepMs = 5;        /* joinleave: a flow joins, then leaves, every step */
    bool hostsGiven = false;
};

/* Hosts of a k-ary fat-tree. */
static uint32_t FatTreeHosts(uint32_t k)
{
    return k * k * k / 4;
}

static const std::map<std::string, std::string> kCc = {
    {"swift", "ns3::TcpSwiftModel"},   {"timely", "ns3::TcpTimelyModel"},
    {"timely-patched", "ns3::TcpTimelyPatchedModel"}, {"dcqcn", "ns3::TcpDcqcnModel"},
    {"dctcp", "ns3::TcpDctcp"},        {"cubic", "ns3::TcpCubic"},
    {"bbr", "ns3::TcpBbr"},
};

static bool UsesEcn(const std::string& cc)
{
    return cc == "dctcp" || cc == "dcqcn";
}

static bool Paced(const std::string& cc)
{
    return cc != "dctcp" && cc != "cubic";
}

[[noreturn]] static void Die(const std::string& msg)
{
    fprintf(stderr, "dccsim: %s\n", msg.c_str());
    exit(2);
}

static double Num(const std::string& k, const std::string& v, double lo, double hi)
{
    char* end;
    double d = strtod(v.c_str(), &end);
    if (v.empty() || *end || !(d >= lo && d <= hi))
    {
        std::ostringstream o;
        o << "--" << k << "=" << v << ": not a number in [" << lo << ", " << hi << "]";
        Die(o.str());
    }
    return d;
}

/* A count: a whole number in [lo, hi]. */
static uint32_t Int(const std::string& k, const std::string& v, double lo, double hi)
{
    double d = Num(k, v, lo, hi);
    if (d != std::floor(d))
    {
        std::ostringstream o;
        o << "--" << k << "=" << v << ": not a whole number in [" << lo << ", " << hi << "]";
        Die(o.str());
    }
    return (uint32_t)d;
}

static Opts Parse(int argc, char** argv)
{
    Opts o;
    std::set<std::string> given;
    std::string ccs = "swift,timely,timely-patched,dcqcn,dctcp,cubic,bbr";
    for (int i = 1; i < argc; i++)
    {
        std::string a = argv[i];
        if (a == "-q")
        {
            o.quiet = true;
            continue;
        }
        size_t eq = a.find('=');
        if (a.rfind("--", 0) != 0 || eq == std::string::npos)
            Die("'" + a + "': expected --key=value (see Documentation/simulation.rst)");
        std::string k = a.substr(2, eq - 2), v = a.substr(eq + 1);
        given.insert(k);
        if (k == "cc")
            ccs = v;
        else if (k == "topo")
            o.topo = v;
        else if (k == "workload")
            o.workload = v;
        else if (k == "hosts")
            o.hosts = Int(k, v, 1, 5000);
        else if (k == "rate")
            o.rateGbps = Num(k, v, 0.001, 400);
        else if (k == "delay")
            o.delayUs = Int(k, v, 0, 100000);
        else if (k == "buffer")
            o.bufferPkts = Int(k, v, 2, 1000000);
        else if (k == "ecn-k")
            o.ecnK = Int(k, v, 1, 1000000);
        else if (k == "duration")
            o.durationMs = Num(k, v, 1, 100000);
        else if (k == "incast-kb")
            o.incastKb = Int(k, v, 1, 1000000);
        else if (k == "leaves")
            o.leaves = Int(k, v, 2, 64);
        else if (k == "spines")
            o.spines = Int(k, v, 1, 64);
        else if (k == "ecmp")
            o.ecmp = v;
        else if (k == "routing")
            o.routing = v;
        else if (k == "plb")
        {
            if (v != "on" && v != "off")
                Die("--plb=" + v + ": on or off");
            o.plb = v == "on";
        }
        else if (k == "aqm")
            o.aqm = v;
        else if (k == "ping-hz")
            o.pingHz = Num(k, v, 0, 10000);
        else if (k == "access-rate")
            o.accessGbps = Num(k, v, 0.001, 400);
        else if (k == "seed")
            o.seed = Int(k, v, 1, 1e9);
        else if (k == "k")
            o.k = Int(k, v, 2, 48);
        else if (k == "red-kmax")
            o.redKmax = Int(k, v, 2, 1000000);
        else if (k == "red-pmax")
            o.redPmax = Num(k, v, 0.0001, 1);
        else if (k == "junos-fill")
            o.junosFill = Num(k, v, 1, 100);
        else if (k == "load")
            o.load = Num(k, v, 1, 99);
        else if (k == "cdf")
            o.cdf = v;
        else if (k == "step")
            o.stepMs = Int(k, v, 1, 1000);
        else if (k == "dump")
        {
            if (v.empty())
                Die("--dump: empty prefix");
            o.dump = v;
        }
        else
            Die("unknown option --" + k);
    }
    std::stringstream ss(ccs);
    std::string c;
    while (std::getline(ss, c, ','))
    {
        if (!kCc.count(c))
            Die("unknown cc '" + c + "' (swift, timely, timely-patched, dcqcn, dctcp, cubic, bbr)");
        o.ccs.push_back(c);
    }
    if (o.ccs.empty())
        Die("--cc: empty list");
    if (o.topo != "dumbbell" && o.topo != "leafspine" && o.topo != "bed" && o.topo != "fattree")
        Die("unknown topology '" + o.topo + "' (dumbbell, leafspine, fattree, bed)");
    if (o.aqm != "auto" && o.aqm != "fifo" && o.aqm != "red" && o.aqm != "junos")
        Die("unknown aqm '" + o.aqm + "' (auto, fifo, red, junos)");
    if (o.workload != "bulk" && o.workload != "incast" && o.workload != "open" &&
        o.workload != "joinleave")
        Die("unknown workload '" + o.workload + "' (bulk, incast, open, joinleave)");
    if (o.workload == "joinleave")
    {
        if (o.topo != "dumbbell")
            Die("--workload=joinleave applies to --topo=dumbbell only");
        if (given.count("duration"))
            Die("--duration: a joinleave run lasts (2 x hosts - 1) x --step");
        if (o.hosts < 2 || o.hosts > 64)
            Die("--hosts: joinleave takes 2 to 64 flows");
        o.durationMs = (2 * o.hosts - 1) * o.stepMs;
    }
    else if (given.count("step"))
        Die("--step applies to --workload=joinleave only");
    if (o.cdf != "websearch" && o.cdf != "fbhdp")
        Die("unknown cdf '" + o.cdf + "' (websearch, fbhdp)");
    bool ft = o.topo == "fattree";
    if (given.count("k") && !ft)
        Die("--k applies to --topo=fattree only");
    if (ft && (o.k < 4 || o.k % 2))
        Die("--k=" + std::to_string(o.k) + ": an even number in [4, 48]");
    if (given.count("hosts") && ft && o.workload == "open")
        Die("--hosts: a fat-tree's open workload uses all k^3/4 hosts");
    if (ft && o.workload == "bulk" && given.count("hosts") &&
        (o.hosts > FatTreeHosts(o.k) || FatTreeHosts(o.k) % o.hosts))
        Die("--hosts: a fat-tree's bulk flows divide its k^3/4 hosts");
    if (ft && (o.workload == "open" || (o.workload == "bulk" && !given.count("hosts"))))
        o.hosts = FatTreeHosts(o.k);
    if (o.workload == "open" && !ft)
        Die("--workload=open applies to --topo=fattree only");
    for (const char* k : {"load", "cdf"})
        if (given.count(k) && o.workload != "open")
            Die(std::string("--") + k + " applies to --workload=open only");
    for (const char* k : {"red-kmax", "red-pmax"})
        if (given.count(k) && o.aqm != "red")
            Die(std::string("--") + k + " applies to --aqm=red only");
    if (given.count("junos-fill") && o.aqm != "junos")
        Die("--junos-fill applies to --aqm=junos only");
    if (o.aqm == "red" && !o.redKmax)
        o.redKmax = std::min(4 * o.ecnK, o.bufferPkts);
    if (o.aqm == "red" && (o.redKmax <= o.ecnK || o.redKmax > o.bufferPkts))
        Die("--red-kmax must be above --ecn-k and at most --buffer");
    if (o.routing != "table" && o.routing != "global")
        Die("unknown routing '" + o.routing + "' (table, global)");
    if (o.ecmp != "flowhash" && o.ecmp != "none")
        Die("unknown ecmp '" + o.ecmp + "' (flowhash, none)");
    /* An option the topology or workload does not use is a mistake. */
    for (const char* k : {"leaves", "spines"})
        if (given.count(k) && o.topo != "leafspine")
            Die(std::string("--") + k + " applies to --topo=leafspine only");
    for (const char* k : {"ecmp", "plb"})
        if (given.count(k) && o.topo != "leafspine" && !ft)
            Die(std::string("--") + k + " applies to --topo=leafspine or fattree only");
    if (given.count("access-rate") && o.topo != "bed")
        Die("--access-rate applies to --topo=bed only");
    if (given.count("incast-kb") && o.workload != "incast")
        Die("--incast-kb applies to --workload=incast only");
    if (given.count("duration") && o.workload == "incast")
        Die("--duration applies to --workload=bulk or open only (an incast runs until done, at most 1 s)");
    if (o.ecnK >= o.bufferPkts)
        Die("--ecn-k must be below --buffer");
    if (o.topo == "leafspine" && o.hosts < o.leaves - 1)
        Die("--hosts must be at least --leaves - 1 on a leaf-spine");
    return o;
}

struct Result
{
    double jainMean = 0, jainMin = 0, convMean = 0, convMax = 0; /* joinleave */
    uint32_t unconv = 0;
    double util = 0, rttP50 = 0, rttP99 = 0, qP50 = 0, qP99 = 0, qMax = 0;
    uint64_t drops = 0, marks = 0;
    double jain = 0, slowest = 0, fctMs = 0, idealMs = 0;
    uint32_t done = 0;
    double wall = 0, evps = 0, cpu = 0;
    uint64_t events = 0;
    uint32_t minCwndMpkt = 0;
    double coreOver = 0; /* share of samples with a core port over target */
    uint64_t repaths = 0;
    uint64_t rtos = 0;
    uint64_t ctlDrops = 0; /* drops of packets without payload */
    uint64_t hostDrops = 0; /* drops in the hosts' NIC queues (not in drops) */
    double minCwndPkts = 0;
    std::vector<double> slow[5]; /* open-loop slowdowns by SizeBucket() */
};

/* Flow-size buckets of the slowdown table (bytes, decimal). */
static const char* const kBucket[5] = {"<10K", "10K-100K", "100K-1M", "1M-10M", ">10M"};
static int SizeBucket(uint64_t b)
{
    return b < 10000 ? 0 : b < 100000 ? 1 : b < 1000000 ? 2 : b < 10000000 ? 3 : 4;
}
/* Open-loop: the run stops when every flow is done, at most this many
 * times --duration. */
static constexpr double kOpenCap = 4;


static std::vector<double> g_rtt;
static double g_rttFromS; /* bulk: samples from the end of the warm-up */
static double g_rttToS = 1e30; /* RTT and queue samples up to here */
static bool g_pingOnly;
static void PingTrace(Time v)
{
    g_rtt.push_back(v.GetMicroSeconds());
}
static void RttTrace(Time, Time v)
{
    if (g_pingOnly)
        return;
    double now = Simulator::Now().GetSeconds();
    if (now >= g_rttFromS && now < g_rttToS)
        g_rtt.push_back(v.GetMicroSeconds());
}

static double Pct(std::vector<double>& v, double p)
{
    if (v.empty())
        return 0;
    size_t i = std::min(v.size() - 1, (size_t)(p / 100.0 * v.size()));
    std::nth_element(v.begin(), v.begin() + i, v.end());
    return v[i];
}

/* A queue's samples as a histogram of kQBin-byte bins (a 5000-port
 * incast cannot keep every sample of every port). */
struct QHist
{
    static constexpr double kQBin = 64;
    std::vector<uint64_t> b;
    uint64_t n = 0;
    double max = 0;
    void Add(double v)
    {
        size_t i = (size_t)(v / kQBin);
        if (i >= b.size())
            b.resize(i + 1);
        b[i]++;
        n++;
        max = std::max(max, v);
    }
    /* The p-th percentile's bin (its lower edge), as Pct() picks a sample. */
    double Pct(double p) const
    {
        if (!n)
            return 0;
        uint64_t want = std::min<uint64_t>(n - 1, (uint64_t)(p / 100.0 * n)), c = 0;
        for (size_t i = 0; i < b.size(); i++)
            if ((c += b[i]) > want)
                return i * kQBin;
        return max;
    }
};

/* Open-loop flows (and the bulk and incast ones, in the same list). */
struct OpenFlow
{
    uint32_t src = 0, dst = 0; /* host (or sender / receiver index) */
    uint64_t bytes = 0;        /* 0: unlimited */
    double startS = 0;
    uint64_t rx = 0;
    double fctS = 0;           /* 0: not done */
    uint32_t hops = 0;         /* links on the path (fat-tree) */
};
static std::vector<OpenFlow>* g_flows;
static size_t g_nFlows; /* flows of the last run */
static uint64_t g_rtos;        /* entries into CA_LOSS: retransmit timeouts */
static uint32_t g_minCwndBytes;

static size_t g_nDone;   /* flows complete */
/* joinleave: bytes each flow delivered in each millisecond. */
static std::vector<std::vector<uint64_t>> g_bins;
static bool g_stopWhenDone; /* incast: the run ends with its last flow */
static void FlowRx(uint32_t i, Ptr<const Packet> p, const Address&)
{
    OpenFlow& f = (*g_flows)[i];
    f.rx += p->GetSize();
    if (!g_bins.empty())
    {
        size_t b = (size_t)(Simulator::Now().GetSeconds() * 1e3);
        if (b < g_bins[i].size())
            g_bins[i][b] += p->GetSize();
    }
    if (!f.fctS && f.bytes && f.rx >= f.bytes)
    {
        f.fctS = Simulator::Now().GetSeconds() - f.startS;
        if (++g_nDone == g_nFlows && g_stopWhenDone)
            Simulator::Stop();
    }
}
static void CongStateTrace(TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t v)
{
    g_rtos += v == TcpSocketState::CA_LOSS;
}
static void CwndTrace(uint32_t, uint32_t v)
{
    g_minCwndBytes = std::min(g_minCwndBytes, v);
}

/* A published flow-size CDF from sim/cdf/<name>.txt: (bytes, percent). */
static std::vector<std::pair<double, double>> LoadCdf(const std::string& name)
{
    std::string path = std::string(DCC_SIM_CDF_DIR) + "/" + name + ".txt";
    std::ifstream in(path);
    if (!in)
        Die("cannot read " + path);
    std::vector<std::pair<double, double>> c;
    std::string line;
    while (std::getline(in, line))
    {
        if (line.empty() || line[0] == '#')
            continue;
        std::istringstream ls(line);
        double x, y;
        if (!(ls >> x >> y) || (!c.empty() && (x < c.back().first || y < c.back().second)))
            Die(path + ": not a CDF (bytes percent, both rising): " + line);
        c.push_back({x, y});
    }
    if (c.size() < 2 || c.back().second != 100)
        Die(path + ": not a CDF ending at 100 %");
    return c;
}

/* Mean of a piecewise-linear CDF (uniform between points). */
static double CdfMean(const std::vector<std::pair<double, double>>& c)
{
    double m = 0;
    for (size_t i = 1; i < c.size(); i++)
        m += (c[i].second - c[i - 1].second) / 100 * (c[i].first + c[i - 1].first) / 2;
    return m;
}

/* Links between two fat-tree hosts: same edge 2, same pod 4, else 6. */
static uint32_t FatTreeHops(uint32_t k, uint32_t a, uint32_t b)
{
    uint32_t half = k / 2;
    if (a / half == b / half)
        return 2;
    if (a / (half * half) == b / (half * half))
        return 4;
    return 6;
}

/*
 * Open-loop flows: every host starts flows as a Poisson process of rate
 * load x link rate / mean flow size, each to a host drawn uniformly among
 * the others, with a size drawn from the CDF; arrivals during --duration.
 * Drawn from the seed alone (not ns-3's streams): every cc gets the same
 * flows.
 */
static std::vector<OpenFlow> DrawOpenFlows(const Opts& o, uint32_t H)
{
    auto cdf = LoadCdf(o.cdf);
    double mean = CdfMean(cdf);
    double lambda = o.load / 100 * o.rateGbps * 1e9 / 8 / mean; /* flows/s per host */
    std::mt19937_64 rng(o.seed * 0x9e3779b97f4a7c15ULL + 1);
    std::uniform_real_distribution<double> u(0, 1);
    std::vector<OpenFlow> fl;
    for (uint32_t h = 0; h < H; h++)
        for (double t = 10e-6 - std::log(1 - u(rng)) / lambda; t < o.durationMs / 1e3;
             t += -std::log(1 - u(rng)) / lambda)
        {
            OpenFlow f;
            f.src = h;
            f.dst = (h + 1 + (uint32_t)(u(rng) * (H - 1))) % H;
            double y = u(rng) * 100;
            size_t i = 1;
            while (i + 1 < cdf.size() && cdf[i].second < y)
                i++;
            double y0 = cdf[i - 1].second, y1 = cdf[i].second;
            double x = y1 > y0 ? cdf[i - 1].first + (y - y0) / (y1 - y0) * (cdf[i].first - cdf[i - 1].first)
                               : cdf[i].first;
            f.bytes = std::max<uint64_t>(1, (uint64_t)std::llround(x));
            f.startS = t;
            f.hops = FatTreeHops(o.k, f.src, f.dst);
            fl.push_back(f);
        }
    if (fl.size() > 60000)
        Die("--workload=open: " + std::to_string(fl.size()) +
            " flows, more than 60000 (shorten --duration)");
    std::sort(fl.begin(), fl.end(), [](const OpenFlow& a, const OpenFlow& b) { return a.startS < b.startS; });
    return fl;
}

/* Ideal completion of a flow alone on an idle fabric, as the sink sees it:
 * the handshake (one round trip), then the first segment across every
 * hop (store and forward), then the rest back to back at line rate.
 * Segments of 1448 bytes, 1490 on the wire (TCP, IP, PPP headers). */
static double IdealFctS(const Opts& o, const OpenFlow& f)
{
    double d = o.delayUs * 1e-6, ser = 1490 * 8 / (o.rateGbps * 1e9);
    double segs = std::ceil(f.bytes / 1448.0);
    return 2 * f.hops * d + f.hops * (d + ser) + (segs - 1) * ser;
}

/* The plots' data: <prefix>-<cc>.q (the busiest port's queue histogram,
 * us and count), .rtt (RTT percentiles 0..100 by 0.5), .fct (per
 * completed flow: bytes, fct us, ideal us). */
static void Dump(const Opts& o, const std::string& cc, const QHist& q, double usPerByte,
                 const std::vector<OpenFlow>& flows)
{
    std::string base = o.dump + "-" + cc;
    std::ofstream qf(base + ".q");
    for (size_t i = 0; i < q.b.size(); i++)
        if (q.b[i])
            qf << i * QHist::kQBin * usPerByte << " " << q.b[i] << "\n";
    std::ofstream rf(base + ".rtt");
    for (int i = 0; i <= 200 && !g_rtt.empty(); i++)
        rf << i / 2.0 << " " << Pct(g_rtt, std::min(i / 2.0, 99.99)) << "\n";
    std::ofstream ff(base + ".fct");
    for (auto& f : flows)
        if (f.fctS > 0 && f.bytes)
            ff << f.bytes << " " << f.fctS * 1e6 << " " << IdealFctS(o, f) * 1e6 << "\n";
}

static void Progress(double endS, const std::string& cc)
{
    double now = Simulator::Now().GetSeconds();
    fprintf(stderr, "\r  %-15s %5.1f / %.1f ms simulated", cc.c_str(), now * 1e3, endS * 1e3);
    if (now + endS / 10 < endS)
        Simulator::Schedule(Seconds(endS / 10), &Progress, endS, cc);
}

static Result RunOne(const Opts& o, const std::string& cc)
{
    Result r;
    g_rtt.clear();
    g_labelled = 0;
    DccPlbRun::Reset(o.plb, o.seed);
    RngSeedManager::SetSeed(o.seed);
    RngSeedManager::SetRun(1);
    Config::SetDefault("ns3::TcpL4Protocol::SocketType", TypeIdValue(TypeId::LookupByName(kCc.at(cc))));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1448));
    /* ns-3 takes RTT samples from the timestamp option in whole ms when it
     * is on: off, they come from each segment's send time, in ns. */
    Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(false));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(4 << 20));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(4 << 20));
    Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(10));
    Config::SetDefault("ns3::TcpSocket::DelAckTimeout", TimeValue(MilliSeconds(40)));
    /* ns-3's RTT sample is the oldest segment an ACK covers (Linux hands
     * congestion control the newest one, rs->rtt_us): with an ACK every
     * two segments, a paced sender's sample would hold the gap to the
     * next segment.  One ACK per segment makes the two the same. */
    Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(1));
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(MilliSeconds(200)));
    Config::SetDefault("ns3::TcpSocketBase::UseEcn", StringValue(UsesEcn(cc) ? "On" : "Off"));
    Config::SetDefault("ns3::TcpSocketState::EnablePacing", BooleanValue(Paced(cc)));
    Config::SetDefault("ns3::TcpSocketState::MaxPacingRate", DataRateValue(DataRate("400Gbps")));
    /* The raw per-ACK sample in tcb->m_lastRtt, as rs->rtt_us. */
    Config::SetDefault("ns3::RttMeanDeviation::Alpha", DoubleValue(1.0));

    std::ostringstream rate;
    rate << o.rateGbps << "Gbps";
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", StringValue(rate.str()));
    p2p.SetChannelAttribute("Delay", TimeValue(MicroSeconds(o.delayUs)));
    p2p.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("1p"));

    TrafficControlHelper tc;
    std::ostringstream buf;
    buf << o.bufferPkts << "p";
    if (UsesEcn(cc) && (o.aqm == "red" || o.aqm == "junos"))
    {
        /* red: DCQCN's marking, from 0 at K to --red-pmax at Kmax, 1
         * above (not gentle); junos: a step at the ECN fill level, a
         * share of the port buffer (the WRED start fill level of the
         * Junos DCQCN configuration).  Both on the instantaneous queue. */
        double lo = o.aqm == "red" ? o.ecnK : std::max(1.0, o.junosFill / 100 * o.bufferPkts);
        double hi = o.aqm == "red" ? o.redKmax : lo + 1;
        double pmax = o.aqm == "red" ? o.redPmax : 1.0;
        tc.SetRootQueueDisc("ns3::RedQueueDisc", "MaxSize", StringValue(buf.str()), "UseEcn",
                            BooleanValue(true), "UseHardDrop", BooleanValue(false), "Gentle",
                            BooleanValue(false), "MinTh", DoubleValue(lo), "MaxTh", DoubleValue(hi),
                            "QW", DoubleValue(1.0), "LInterm", DoubleValue(1.0 / pmax),
                            "MeanPktSize", UintegerValue(1500));
    }
    else if (UsesEcn(cc) && o.aqm == "auto")
    {
        /* Step marking at K on the instantaneous queue (DCTCP's switch). */
        tc.SetRootQueueDisc("ns3::RedQueueDisc", "MaxSize", StringValue(buf.str()), "UseEcn",
                            BooleanValue(true), "UseHardDrop", BooleanValue(false), "MinTh",
                            DoubleValue(o.ecnK), "MaxTh", DoubleValue(o.ecnK + 1), "QW",
                            DoubleValue(1.0), "LInterm", DoubleValue(1.0), "MeanPktSize",
                            UintegerValue(1500));
    }
    else
    {
        tc.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", StringValue(buf.str()));
    }

    /* Hosts: Linux's default 1000-packet FIFO, no ECN marking there. */
    TrafficControlHelper hostTc;
    hostTc.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", StringValue("1000p"));

    NodeContainer senders, receivers, switches, ftHosts;
    std::vector<std::pair<Ptr<Node>, Ptr<Node>>> links; /* switch-side first when a switch */
    std::vector<bool> isSwitchSide;
    bool bed = o.topo == "bed";
    bool ft = o.topo == "fattree";
    bool open = o.workload == "open";
    uint32_t nRecv = o.workload == "incast" || bed ? 1 : o.hosts;
    uint32_t half = o.k / 2, H = FatTreeHosts(o.k);
    if (ft)
    {
        /* Every host may send and receive: senders and receivers are
         * views of one set.  Bulk: host i to host i + H/2 (another pod);
         * incast: N senders to host 0, sender i on host 1 + i mod (H-1)
         * (several connections per host past H-1); open: all hosts,
         * pairs drawn. */
        ftHosts.Create(H);
        if (open)
        {
            senders = ftHosts;
            receivers = ftHosts;
            nRecv = H;
        }
        else if (o.workload == "incast")
        {
            for (uint32_t i = 0; i < o.hosts; i++)
                senders.Add(ftHosts.Get(1 + i % (H - 1)));
            receivers.Add(ftHosts.Get(0));
        }
        else
        {
            /* --hosts=n: n flows from every H/n-th host (all H by
             * default), each to the host half the tree away. */
            for (uint32_t i = 0; i < H; i += H / o.hosts)
            {
                senders.Add(ftHosts.Get(i));
                receivers.Add(ftHosts.Get((i + H / 2) % H));
            }
        }
    }
    else
    {
        senders.Create(bed ? 1 : o.hosts);
        receivers.Create(nRecv);
    }
    /* The flow's sender and receiver nodes. */
    auto snd = [&](uint32_t i) { return senders.Get(bed ? 0 : i); };
    auto rcv = [&](uint32_t i) { return o.workload == "incast" || bed ? 0 : i; };
    if (bed)
    {
        /* make bench's dumbbell (selftests/lib.sh topo_dumbbell): one
         * client, a router, one server; every flow from the client.  The
         * client's link (a veth in the VM) at --access-rate, no delay;
         * the router's port to the server is the bottleneck, and that
         * link carries the delay (--delay each way: the VM's 250 us of
         * netem on the ACK path is --delay=125). */
        switches.Create(1);
        links.push_back({switches.Get(0), senders.Get(0)});
        links.push_back({switches.Get(0), receivers.Get(0)});
    }
    else if (o.topo == "dumbbell")
    {
        switches.Create(2);
        for (uint32_t i = 0; i < o.hosts; i++)
            links.push_back({switches.Get(0), senders.Get(i)});
        links.push_back({switches.Get(0), switches.Get(1)});
        for (uint32_t i = 0; i < nRecv; i++)
            links.push_back({switches.Get(1), receivers.Get(i)});
    }
    else if (ft)
    {
        /* k pods of k/2 edge and k/2 aggregation switches; (k/2)^2 cores.
         * Switch numbering: edges pod*half+e, aggregations k*half +
         * pod*half+a, cores k*k + c.  Aggregation a of every pod connects
         * to cores a*half .. a*half+half-1.  Links lower end first. */
        switches.Create(o.k * o.k + half * half);
        for (uint32_t p = 0; p < o.k; p++)
            for (uint32_t e = 0; e < half; e++)
                for (uint32_t a = 0; a < half; a++)
                    links.push_back({switches.Get(p * half + e), switches.Get(o.k * half + p * half + a)});
        for (uint32_t p = 0; p < o.k; p++)
            for (uint32_t a = 0; a < half; a++)
                for (uint32_t c = 0; c < half; c++)
                    links.push_back({switches.Get(o.k * half + p * half + a),
                                     switches.Get(o.k * o.k + a * half + c)});
        for (uint32_t h = 0; h < H; h++)
            links.push_back({switches.Get(h / half), ftHosts.Get(h)});
    }
    else
    {
        /* Senders spread over leaves 0..L-2, receivers on the last leaf. */
        switches.Create(o.leaves + o.spines);
        for (uint32_t l = 0; l < o.leaves; l++)
            for (uint32_t s = 0; s < o.spines; s++)
                links.push_back({switches.Get(l), switches.Get(o.leaves + s)});
        for (uint32_t i = 0; i < o.hosts; i++)
            links.push_back({switches.Get(i % (o.leaves - 1)), senders.Get(i)});
        for (uint32_t i = 0; i < nRecv; i++)
            links.push_back({switches.Get(o.leaves - 1), receivers.Get(i)});
    }
    InternetStackHelper stack;
    stack.InstallAll();
    Ipv4AddressHelper addr;
    addr.SetBase("10.0.0.0", "255.255.255.252");
    std::vector<Ptr<QueueDisc>> swq;
    std::vector<bool> core; /* swq[i] is a leaf-spine port */
    /* Ports whose queue is sampled: all but a switch's ports to hosts
     * that only send (their queues hold ACKs; a 5000:1 incast has 5000). */
    std::vector<size_t> sampled;
    std::vector<Ipv4Address> recvAddr(nRecv);
    std::vector<Ptr<QueueDisc>> hostQ;
    std::map<Ptr<Node>, Ipv4Address> hostAddr;
    std::map<Ptr<Node>, std::vector<FlowHashEcmp::Up>> leafUps;
    std::map<Ptr<Node>, std::vector<Ipv4Address>> leafHosts;
    auto isSpine = [&](Ptr<Node> n) {
        for (uint32_t s = o.leaves; o.topo == "leafspine" && s < switches.GetN(); s++)
            if (n == switches.Get(s))
                return true;
        return false;
    };
    /* Both ends of every link: node, interface, address. */
    struct End
    {
        Ptr<Node> a, b;
        uint32_t ifA, ifB;
        Ipv4Address addrA, addrB;
    };
    std::vector<End> ends;
    PointToPointHelper access;
    {
        std::ostringstream ar;
        ar << (o.accessGbps > 0 ? o.accessGbps : 10) << "Gbps";
        access.SetDeviceAttribute("DataRate", StringValue(ar.str()));
        access.SetChannelAttribute("Delay", TimeValue(MicroSeconds(0)));
        access.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("1p"));
    }
    std::map<Ptr<Node>, uint32_t> isSwitch;
    for (uint32_t s = 0; s < switches.GetN(); s++)
        isSwitch[switches.Get(s)] = s;
    for (auto& l : links)
    {
        NetDeviceContainer d = bed && l.second == senders.Get(0) ? access.Install(l.first, l.second)
                                                                 : p2p.Install(l.first, l.second);
        bool bothSwitch = isSwitch.count(l.second);
        bool multi = o.topo == "leafspine" || ft;
        bool onlySends = !bothSwitch && !ft && !bed;
        for (uint32_t i = 0; onlySends && i < receivers.GetN(); i++)
            onlySends = l.second != receivers.Get(i);
        if (!onlySends)
            sampled.push_back(swq.size());
        swq.push_back(tc.Install(d.Get(0)).Get(0)); /* the switch's egress */
        core.push_back(bothSwitch && multi);
        if (bothSwitch)
        {
            sampled.push_back(swq.size());
            swq.push_back(tc.Install(d.Get(1)).Get(0));
            core.push_back(multi);
        }
        else
            hostQ.push_back(hostTc.Install(d.Get(1)).Get(0)); /* a host's NIC: never marks */
        Ipv4InterfaceContainer ifc = addr.Assign(d);
        addr.NewNetwork();
        ends.push_back({l.first, l.second,
                        (uint32_t)l.first->GetObject<Ipv4>()->GetInterfaceForDevice(d.Get(0)),
                        (uint32_t)l.second->GetObject<Ipv4>()->GetInterfaceForDevice(d.Get(1)),
                        ifc.GetAddress(0), ifc.GetAddress(1)});
        if ((o.topo == "leafspine" && isSpine(l.second)) || (ft && bothSwitch))
            leafUps[l.first].push_back(
                {(uint32_t)l.first->GetObject<Ipv4>()->GetInterfaceForDevice(d.Get(0)),
                 ifc.GetAddress(1)});
        else if (o.topo == "leafspine" && !bothSwitch)
            leafHosts[l.first].push_back(ifc.GetAddress(1));
        if (!bothSwitch)
            hostAddr[l.second] = ifc.GetAddress(1);
    }
    for (uint32_t i = 0; i < nRecv; i++)
        recvAddr[i] = hostAddr[receivers.Get(i)];
    if (ft)
        for (uint32_t h = 0; h < H; h++)
        {
            /* An edge routes its own hosts, an aggregation its pod's. */
            leafHosts[switches.Get(h / half)].push_back(hostAddr[ftHosts.Get(h)]);
            for (uint32_t a = 0; a < half; a++)
                leafHosts[switches.Get(o.k * half + h / (half * half) * half + a)].push_back(
                    hostAddr[ftHosts.Get(h)]);
        }
    std::map<Ptr<Node>, Ptr<TableRouting>> table;
    if (o.routing == "global")
        Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    else
    {
        /* Every node's neighbours: (neighbour, own interface, the
         * neighbour's address on the link). */
        std::map<Ptr<Node>, std::vector<std::tuple<Ptr<Node>, uint32_t, Ipv4Address>>> adj;
        for (auto& e : ends)
        {
            adj[e.a].push_back({e.b, e.ifA, e.addrB});
            adj[e.b].push_back({e.a, e.ifB, e.addrA});
        }
        for (auto& [n, nb] : adj)
        {
            Ptr<TableRouting> t = CreateObject<TableRouting>();
            for (auto& e : ends)
            {
                if (e.a == n)
                    t->own.insert(e.addrA.Get());
                if (e.b == n)
                    t->own.insert(e.addrB.Get());
            }
            if (!isSwitch.count(n))
            {
                /* A host: everything up its one link. */
                t->hasDefault = true;
                t->deflt = {std::get<1>(nb[0]), std::get<2>(nb[0])};
            }
            else
            {
                /* A switch: breadth first from it, each node reached
                 * through the first of its neighbours that reaches it
                 * (hosts do not forward); a route to every host. */
                std::map<Ptr<Node>, size_t> via;
                std::vector<Ptr<Node>> fifo;
                for (size_t i = 0; i < nb.size(); i++)
                    if (!via.count(std::get<0>(nb[i])))
                    {
                        via[std::get<0>(nb[i])] = i;
                        fifo.push_back(std::get<0>(nb[i]));
                    }
                via[n] = 0;
                for (size_t q = 0; q < fifo.size(); q++)
                {
                    Ptr<Node> x = fifo[q];
                    if (!isSwitch.count(x))
                    {
                        auto hit = hostAddr.find(x);
                        if (hit != hostAddr.end())
                            t->routes[hit->second.Get()] = {std::get<1>(nb[via[x]]),
                                                            std::get<2>(nb[via[x]])};
                        continue;
                    }
                    for (auto& y : adj[x])
                        if (!via.count(std::get<0>(y)))
                        {
                            via[std::get<0>(y)] = via[x];
                            fifo.push_back(std::get<0>(y));
                        }
                }
            }
            t->SetIpv4(n->GetObject<Ipv4>());
            n->GetObject<Ipv4>()->SetRoutingProtocol(t);
            table[n] = t;
        }
    }
    FlowHashEcmp::s_routed = 0;
    if ((o.topo == "leafspine" || ft) && o.ecmp == "flowhash")
        for (auto& [leaf, ups] : leafUps)
        {
            Ptr<FlowHashEcmp> e = CreateObject<FlowHashEcmp>();
            e->ups = ups;
            for (auto& a : leafHosts[leaf])
                e->local.insert(a.Get());
            e->salt = ft ? o.seed ^ (leaf->GetId() * 0x9e3779b9U) : o.seed;
            if (o.routing == "global")
                DynamicCast<Ipv4ListRouting>(leaf->GetObject<Ipv4>()->GetRoutingProtocol())
                    ->AddRoutingProtocol(e, 10);
            else
            {
                e->SetIpv4(leaf->GetObject<Ipv4>());
                table[leaf]->ecmp = e;
            }
        }

    std::vector<uint64_t> drops(2, 0), marks(1, 0);
    for (auto& q : swq)
    {
        /* drops[1]: of them, packets without payload (ACKs, SYNs: not
         * ECN-capable, so RED drops them where it marks data). */
        q->TraceConnectWithoutContext(
            "Drop", MakeBoundCallback(
                        +[](uint64_t* c, Ptr<const QueueDiscItem> it) {
                            c[0]++;
                            c[1] += it->GetPacket()->GetSize() <= 60;
                        },
                        drops.data()));
        q->TraceConnectWithoutContext(
            "Mark", MakeBoundCallback(+[](uint64_t* c, Ptr<const QueueDiscItem>, const char*) { (*c)++; },
                                      &marks[0]));
    }

    bool incast = o.workload == "incast";
    double endS = incast ? 1.0 : open ? kOpenCap * o.durationMs / 1e3 : o.durationMs / 1e3;
    bool jl = o.workload == "joinleave";
    double warm = incast || jl ? 0 : o.durationMs / 1e3 / 5;
    g_rttFromS = warm;
    /* Open-loop: the queue and RTT while flows arrive, not the drain. */
    g_rttToS = open ? o.durationMs / 1e3 : 1e30;
    g_rtos = 0;
    g_minCwndBytes = ~0U;
    g_pingOnly = o.pingHz > 0;
    if (o.pingHz > 0)
    {
        /* ping_rtts in the VM: 56-byte ICMP echo through the same queues,
         * from the end of the warm-up to the end of the run. */
        V4PingHelper ph(recvAddr[0]);
        ph.SetAttribute("Interval", TimeValue(Seconds(1.0 / o.pingHz)));
        ApplicationContainer pa = ph.Install(snd(0));
        pa.Start(Seconds(warm));
        pa.Stop(Seconds(endS));
        pa.Get(0)->TraceConnectWithoutContext("Rtt", MakeCallback(&PingTrace));
    }
    /* The flows: bulk and incast one per sender (to rcv(i)); open-loop
     * drawn before the run from the seed alone, so every cc gets the
     * same flows. */
    std::vector<OpenFlow> flows;
    if (open)
        flows = DrawOpenFlows(o, H);
    else
        for (uint32_t i = 0; i < o.hosts; i++)
        {
            OpenFlow f;
            f.src = i;
            f.dst = rcv(i);
            f.bytes = incast ? (uint64_t)o.incastKb * 1024 : 0;
            f.startS = (incast ? 10 : 10 + i) * 1e-6;
            /* joinleave: flow i joins at i steps and (but flow 0) leaves
             * at 2N-1-i steps: one more flow every step, then one fewer. */
            if (jl)
                f.startS = i * o.stepMs * 1e-3 + (i ? 0 : 10e-6);
            flows.push_back(f);
        }
    g_flows = &flows;
    g_nFlows = flows.size();
    g_nDone = 0;
    g_stopWhenDone = incast;
    g_bins.assign(jl ? flows.size() : 0, std::vector<uint64_t>((size_t)std::ceil(o.durationMs), 0));
    std::vector<Ptr<PacketSink>> sinks;
    bool dcqcn = cc == "dcqcn";
    bool plbOn = o.plb && (o.topo == "leafspine" || ft);
    for (uint32_t i = 0; i < flows.size(); i++)
    {
        OpenFlow& f = flows[i];
        uint16_t port = 5000 + (open ? i % 60000 : i);
        Ptr<Node> sn = open ? ftHosts.Get(f.src) : snd(f.src);
        Ptr<Node> rn = open ? ftHosts.Get(f.dst) : receivers.Get(f.dst);
        Ipv4Address ra = open ? hostAddr[rn] : recvAddr[f.dst];
        PacketSinkHelper sh("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
        ApplicationContainer sa = sh.Install(rn);
        sa.Start(Seconds(open ? std::max(0.0, f.startS - 1e-6) : 0));
        Ptr<PacketSink> sink = DynamicCast<PacketSink>(sa.Get(0));
        sinks.push_back(sink);
        if (open || incast || jl)
            sink->TraceConnectWithoutContext("Rx", MakeBoundCallback(&FlowRx, i));
        BulkSendHelper bh("ns3::TcpSocketFactory", InetSocketAddress(ra, port));
        bh.SetAttribute("MaxBytes", UintegerValue(f.bytes));
        bh.SetAttribute("SendSize", UintegerValue(64 * 1024));
        ApplicationContainer ba = bh.Install(sn);
        ba.Start(Seconds(f.startS));
        Ptr<BulkSendApplication> app = DynamicCast<BulkSendApplication>(ba.Get(0));
        /* The sender's socket exists once the application started. */
        Simulator::Schedule(Seconds(f.startS) + NanoSeconds(1), [app, dcqcn, plbOn]() {
            Ptr<Socket> so = app->GetSocket();
            if (!so)
                return;
            so->TraceConnectWithoutContext("RTT", MakeCallback(&RttTrace));
            so->TraceConnectWithoutContext("CongState", MakeCallback(&CongStateTrace));
            so->TraceConnectWithoutContext("CongestionWindow", MakeCallback(&CwndTrace));
            if (plbOn)
                so->TraceConnectWithoutContext("Tx", MakeCallback(&TagTx));
            if (dcqcn)
                so->TraceConnectWithoutContext("Rx", MakeCallback(&TcpDcqcnModel::SegmentReceived));
        });
        if (jl && i)
            /* Leaving: the connection is reset (a close would first send
             * the 4 MB the socket holds). */
            Simulator::Schedule(Seconds((2 * o.hosts - 1 - i) * o.stepMs * 1e-3), [app]() {
                Ptr<Socket> so = app->GetSocket();
                if (so)
                    SockReset::Reset(DynamicCast<TcpSocketBase>(so));
            });
    }

    /* Queue samples every 2 us at every switch port; the busiest port's. */
    std::vector<QHist> qs(swq.size());
    /* Core ports over target: Swift's base target at line rate. */
    double overBytes = SWIFT_DEF_base_target_us * 1e-6 * o.rateGbps * 1e9 / 8;
    uint64_t coreSamples = 0, coreOver = 0;
    std::function<void()> sample = [&]() {
        double now = Simulator::Now().GetSeconds();
        if (now >= warm && now < g_rttToS)
        {
            bool over = false;
            for (size_t i : sampled)
            {
                qs[i].Add(swq[i]->GetNBytes());
                over = over || (core[i] && swq[i]->GetNBytes() > overBytes);
            }
            coreSamples++;
            coreOver += over;
        }
        Simulator::Schedule(MicroSeconds(2), sample);
    };
    Simulator::Schedule(MicroSeconds(2), sample);

    /* Incast: completion times from the sinks. */
    std::vector<double> fct(o.hosts, 0);
    uint64_t want = (uint64_t)o.incastKb * 1024;
    std::vector<uint64_t> rxAtWarm(o.hosts, 0);
    /* (FlowRx stops the run at the last byte of the last flow.) */
    /* Open-loop: done when every flow is (or at the cap, endS). */
    std::function<void()> pollOpen = [&]() {
        size_t n = 0;
        for (auto& f : flows)
            n += f.fctS > 0;
        if (n == flows.size())
            Simulator::Stop();
        else
            Simulator::Schedule(MicroSeconds(50), pollOpen);
    };
    if (open)
        Simulator::Schedule(Seconds(o.durationMs / 1e3), pollOpen);
    else
        Simulator::Schedule(Seconds(warm), [&]() {
            for (uint32_t i = 0; i < o.hosts; i++)
                rxAtWarm[i] = sinks[i]->GetTotalRx();
        });
    if (!o.quiet && isatty(2))
        Simulator::Schedule(Seconds(0), &Progress, endS, cc);

    Simulator::Stop(Seconds(endS));
    auto t0 = std::chrono::steady_clock::now();
    std::clock_t c0 = std::clock();
    uint64_t ev0 = Simulator::GetEventCount();
    Simulator::Run();
    r.events = Simulator::GetEventCount() - ev0;
    r.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.cpu = (double)(std::clock() - c0) / CLOCKS_PER_SEC;
    r.evps = r.events / std::max(r.cpu, 1e-9); /* per CPU second: the machine may be shared */
    double simEnd = Simulator::Now().GetSeconds();
    if (!o.quiet && isatty(2))
        fprintf(stderr, "\r%60s\r", "");

    double lineBps = o.rateGbps * 1e9;
    std::vector<double> tput;
    if (incast)
    {
        double last = 0;
        for (uint32_t i = 0; i < o.hosts; i++)
        {
            fct[i] = flows[i].fctS;
            r.done += fct[i] > 0;
            last = std::max(last, fct[i] > 0 ? fct[i] : simEnd);
            tput.push_back(want * 8.0 / std::max(fct[i] > 0 ? fct[i] : simEnd, 1e-9));
        }
        r.fctMs = last * 1e3;
        r.idealMs = want * 8.0 * o.hosts / lineBps * 1e3;
        r.util = want * 8.0 * r.done / lineBps / std::max(last, 1e-9);
    }
    else if (open)
    {
        /* Slowdown: completion time over the ideal, by flow size. */
        double bytes = 0;
        for (auto& f : flows)
        {
            r.done += f.fctS > 0;
            bytes += f.rx;
            if (f.fctS > 0)
                r.slow[SizeBucket(f.bytes)].push_back(f.fctS / IdealFctS(o, f));
        }
        r.util = bytes * 8 / (lineBps * H * std::min(simEnd, o.durationMs / 1e3));
    }
    else if (jl)
    {
        /* Jain's index of the flows active for the whole of each 1 ms
         * (joined at or before its start, not left before its end); the
         * bins with two flows or more.  Convergence: from each join or
         * leave to the end of the first bin whose index is 0.9 or more. */
        size_t nb = g_bins.empty() ? 0 : g_bins[0].size();
        uint32_t N = o.hosts;
        auto joinMs = [&](uint32_t i) { return (double)i * o.stepMs; };
        auto leaveMs = [&](uint32_t i) { return i ? (2.0 * N - 1 - i) * o.stepMs : 1e30; };
        std::vector<double> jain(nb, -1);
        double sumJ = 0, minJ = 1, tot = 0, slow = 1;
        uint32_t nJ = 0;
        std::ofstream ts;
        if (!o.dump.empty())
            ts.open(o.dump + "-" + cc + ".jl");
        for (size_t b = 0; b < nb; b++)
        {
            double s1 = 0, s2 = 0, lo = 1e300;
            uint32_t act = 0;
            for (uint32_t i = 0; i < N; i++)
                if (joinMs(i) <= b && leaveMs(i) >= b + 1)
                {
                    double x = g_bins[i][b];
                    s1 += x;
                    s2 += x * x;
                    lo = std::min(lo, x);
                    act++;
                }
            tot += s1;
            if (act >= 2)
            {
                jain[b] = s2 > 0 ? s1 * s1 / (act * s2) : 0;
                sumJ += jain[b];
                minJ = std::min(minJ, jain[b]);
                slow = std::min(slow, s1 > 0 ? lo / (s1 / act) : 0);
                nJ++;
            }
            if (ts.is_open())
            {
                ts << b + 1 << " " << jain[b] << " " << act;
                for (uint32_t i = 0; i < N; i++)
                    ts << " " << g_bins[i][b] * 8.0 / 1e6; /* Gbit/s over 1 ms */
                ts << "\n";
            }
        }
        r.util = tot * 8 / (lineBps * nb * 1e-3);
        r.jainMean = nJ ? sumJ / nJ : 0;
        r.jainMin = nJ ? minJ : 0;
        r.jain = r.jainMean;
        r.slowest = nJ ? slow : 0; /* the lowest share of any 1 ms */
        std::vector<double> ev;
        for (uint32_t i = 1; i < N; i++)
            ev.push_back(joinMs(i));
        for (uint32_t i = N - 1; i >= 2; i--)
            ev.push_back(leaveMs(i)); /* the last leave leaves one flow */
        double sumC = 0;
        for (double t : ev)
        {
            double c = -1;
            for (size_t b = (size_t)t; b < nb && b < t + o.stepMs; b++)
                if (jain[b] >= 0.9)
                {
                    c = b + 1 - t;
                    break;
                }
            if (c < 0)
            {
                r.unconv++;
                c = o.stepMs;
            }
            sumC += c;
            r.convMax = std::max(r.convMax, c);
        }
        r.convMean = ev.empty() ? 0 : sumC / ev.size();
    }
    else
    {
        double total = 0;
        for (uint32_t i = 0; i < o.hosts; i++)
        {
            double b = (sinks[i]->GetTotalRx() - rxAtWarm[i]) * 8.0 / (simEnd - warm);
            tput.push_back(b);
            total += b;
        }
        /* The bottleneck carries all flows (dumbbell L-R, the last leaf's
         * downlinks on a leaf-spine: their sum is hosts x rate there). */
        double cap = ft ? lineBps * o.hosts
                     : o.topo != "leafspine" ? lineBps
                                             : lineBps * std::min<uint32_t>(nRecv, o.spines);
        r.util = total / cap;
    }
    double s = 0, s2 = 0, mn = 1e300;
    for (double t : tput)
    {
        s += t;
        s2 += t * t;
        mn = std::min(mn, t);
    }
    r.jain = jl ? r.jainMean : s2 > 0 ? s * s / (tput.size() * s2) : 0;
    if (!jl)
        r.slowest = s > 0 ? mn / (s / tput.size()) : 0;
    r.rttP50 = Pct(g_rtt, 50);
    r.rttP99 = Pct(g_rtt, 99);
    size_t busiest = 0;
    double best = -1;
    for (size_t i = 0; i < qs.size(); i++)
    {
        /* the highest p99; among equal p99s (an incast's queue is empty
         * most of the time while flows wait for a timeout) the highest peak */
        double p = qs[i].Pct(99) * 1e12 + qs[i].max;
        if (p > best)
        {
            best = p;
            busiest = i;
        }
    }
    double usPerByte = 8.0 / lineBps * 1e6;
    if (!qs.empty() && qs[busiest].n)
    {
        r.qP50 = qs[busiest].Pct(50) * usPerByte;
        r.qP99 = qs[busiest].Pct(99) * usPerByte;
        r.qMax = qs[busiest].max * usPerByte;
    }
    r.rtos = g_rtos;
    r.minCwndPkts = g_minCwndBytes == ~0U ? 0 : g_minCwndBytes / 1448.0;
    if (!o.dump.empty())
        Dump(o, cc, qs.empty() ? QHist() : qs[busiest], usPerByte, flows);
    r.coreOver = coreSamples ? (double)coreOver / coreSamples : 0;
    r.repaths = DccPlbRun::s_repaths;
    r.drops = drops[0];
    r.ctlDrops = drops[1];
    for (auto& q : hostQ)
        r.hostDrops += q->GetStats().nTotalDroppedPackets;
    r.marks = marks[0];
    if (cc == "swift")
        r.minCwndMpkt = TcpSwiftModel::MinCwndMpkt();
    Simulator::Destroy();
    return r;
}

int main(int argc, char** argv)
{
    Opts o = Parse(argc, argv);
    bool incast = o.workload == "incast";
    bool open = o.workload == "open";
    bool jl = o.workload == "joinleave";
    bool multi = o.topo == "leafspine" || o.topo == "fattree";
    if (o.topo == "leafspine")
        printf("# leaf-spine: %u leaves, %u spines, ECMP %s, PLB %s; core_over: share of time a "
               "leaf-spine port holds over %u us\n",
               o.leaves, o.spines, o.ecmp.c_str(), o.plb ? "on" : "off",
               (unsigned)SWIFT_DEF_base_target_us);
    if (o.topo == "fattree")
        printf("# fat-tree: k=%u, %u hosts, %u switches, ECMP %s, PLB %s; core_over: share of time "
               "a switch-to-switch port holds over %u us\n",
               o.k, FatTreeHosts(o.k), o.k * o.k + o.k * o.k / 4, o.ecmp.c_str(), o.plb ? "on" : "off",
               (unsigned)SWIFT_DEF_base_target_us);
    std::string marking = "ECN K=" + std::to_string(o.ecnK) + " pkts";
    if (o.aqm == "red")
        marking = "ECN RED K=" + std::to_string(o.ecnK) + ".." + std::to_string(o.redKmax) +
                  " pkts, pmax " + std::to_string(o.redPmax).substr(0, 6);
    else if (o.aqm == "junos")
        marking = "ECN step at " + std::to_string(o.junosFill).substr(0, 5) + " % of the buffer";
    else if (o.aqm == "fifo")
        marking = "FIFO, no marking";
    printf("# %s %s: %u sender(s), %g Gbit/s links, %u us/link, buffer %u pkts, %s\n",
           o.topo.c_str(), o.workload.c_str(), o.hosts, o.rateGbps, o.delayUs, o.bufferPkts,
           marking.c_str());
    if (incast)
        printf("# incast: %u KB per sender; ideal = all bytes at line rate\n", o.incastKb);
    else if (open)
    {
        auto c = LoadCdf(o.cdf);
        printf("# open: %s flow sizes (mean %.0f bytes), %g %% load per host link, Poisson "
               "arrivals for %g ms, random pairs; run until done (at most %g ms)\n",
               o.cdf.c_str(), CdfMean(c), o.load, o.durationMs, kOpenCap * o.durationMs);
        printf("# slowdown = completion (sink) / ideal (handshake + path + bytes at line rate); "
               "p50/p99 per flow-size bucket (bytes)\n");
    }
    else if (jl)
        printf("# joinleave: flow i joins at i x %g ms, flows N-1..1 leave one a step after the "
               "last join, %g ms in all; jain: mean over 1 ms bins with 2 flows or more, jain_min "
               "the lowest, slowest: the lowest flow / mean of any such 1 ms; conv_ms: mean (and max) time from a join or leave to the end of the "
               "first 1 ms whose index is >= 0.9; unconv: events that never reached it within the step\n",
               o.stepMs, o.durationMs);
    else
        printf("# bulk: %g ms simulated, first 20%% not measured\n", o.durationMs);
    if (open)
    {
        printf("%-15s %6s %7s %8s %8s %8s %8s %8s %7s %7s %5s", "cc", "load", "done", "rtt_p50",
               "rtt_p99", "q_p50", "q_p99", "q_max", "drops", "marks", "rtos");
        for (auto b : kBucket)
            printf(" %13s", b);
        printf(" %7s %7s %9s %9s\n", "wall_s", "cpu_s", "events", "ev/s");
    }
    else
    {
        printf("%-15s %6s %8s %8s %8s %8s %8s %7s %7s %6s %7s", "cc", "util", "rtt_p50", "rtt_p99",
               "q_p50", "q_p99", "q_max", "drops", "marks", "jain", "slowest");
        if (incast)
            printf(" %8s %8s %9s %5s %7s", "fct_ms", "ideal", "done", "rtos", "min_cw");
        if (jl)
            printf(" %8s %8s %8s %6s", "jain_min", "conv_ms", "conv_max", "unconv");
        if (multi)
            printf(" %9s %7s", "core_over", "repaths");
        printf(" %7s %7s %9s %9s\n", "wall_s", "cpu_s", "events", "ev/s");
    }
    fflush(stdout);
    for (auto& cc : o.ccs)
    {
        Result r = RunOne(o, cc);
        if (open)
        {
            size_t n = 0;
            for (auto& v : r.slow)
                n += v.size();
            char done[32];
            snprintf(done, sizeof(done), "%u/%zu", r.done, g_flows ? g_nFlows : n);
            printf("%-15s %6.3f %7s %8.1f %8.1f %8.1f %8.1f %8.1f %7lu %7lu %5lu", cc.c_str(), r.util,
                   done, r.rttP50, r.rttP99, r.qP50, r.qP99, r.qMax, (unsigned long)r.drops,
                   (unsigned long)r.marks, (unsigned long)r.rtos);
            for (auto& v : r.slow)
            {
                char cell[32];
                if (v.empty())
                    snprintf(cell, sizeof(cell), "-");
                else
                {
                    double p50 = Pct(v, 50), p99 = Pct(v, 99);
                    snprintf(cell, sizeof(cell), "%.1f/%.1f", p50, p99);
                }
                printf(" %13s", cell);
            }
        }
        else
        {
            printf("%-15s %6.3f %8.1f %8.1f %8.1f %8.1f %8.1f %7lu %7lu %6.3f %7.3f", cc.c_str(),
                   r.util, r.rttP50, r.rttP99, r.qP50, r.qP99, r.qMax, (unsigned long)r.drops,
                   (unsigned long)r.marks, r.jain, r.slowest);
            if (jl)
                printf(" %8.3f %8.2f %8.2f %3u/%-2u", r.jainMin, r.convMean, r.convMax, r.unconv,
                       2 * o.hosts - 3);
            if (incast)
            {
                char done[32];
                snprintf(done, sizeof(done), "%u/%u", r.done, o.hosts);
                printf(" %8.3f %8.3f %9s %5lu %7.3f", r.fctMs, r.idealMs, done, (unsigned long)r.rtos,
                       cc == "swift" ? r.minCwndMpkt / 1000.0 : r.minCwndPkts);
            }
            if (multi)
                printf(" %9.3f %7lu", r.coreOver, (unsigned long)r.repaths);
        }
        printf(" %7.2f %7.2f %9lu %9.0f", r.wall, r.cpu, (unsigned long)r.events, r.evps);
        if (cc == "swift" && !incast)
            printf("  min_cwnd=%.3f", r.minCwndMpkt / 1000.0);
        printf("\n");
        if (r.ctlDrops)
            printf("#   %s: %lu of the %lu drops were packets without payload (ACKs, SYNs)\n",
                   cc.c_str(), (unsigned long)r.ctlDrops, (unsigned long)r.drops);
        if (r.hostDrops)
            printf("#   %s: %lu more drops in the hosts' own NIC queues (1000-packet FIFOs)\n",
                   cc.c_str(), (unsigned long)r.hostDrops);
        fflush(stdout);
    }
    printf("# rtt in us (%s); q in us of the busiest switch port at line rate%s\n",
           o.pingHz > 0 ? "56-byte pings from sender 0 after the warm-up" : "per-ACK samples after the warm-up",
           incast ? "; min_cw: smallest window in packets (swift: its core's, below one packet "
                    "as pacing; others: ns-3's cwnd)"
                  : "");
    return 0;
}
