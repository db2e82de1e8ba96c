/* cudnn_attention.cpp - the fused attention backend through the cuDNN frontend's
 * SDPA graphs (see cudnn_attention.h). */
#include "train/cuda/cudnn_attention.h"

#include <cuda_runtime.h>
#include <cudnn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <cudnn_frontend.h>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <unordered_map>

namespace fe = cudnn_frontend;

namespace {

enum Uid : int64_t { U_Q = 1, U_K, U_V, U_O, U_LSE, U_DO, U_DQ, U_DK, U_DV, U_SCALE };

typedef std::tuple<int, int, int, int, int, int> key_t_; /* dtype, B, T, NH, hs, kind */
enum { K_FWD = 0, K_FWD_INFER = 1, K_BWD = 2 };

struct state {
    std::mutex mu;
    cudnnHandle_t h = nullptr;
    void *ws = nullptr;
    int64_t ws_size = 0;
    std::map<key_t_, std::shared_ptr<fe::graph::Graph>> graphs;
};
state &S()
{
    static state s;
    return s;
}

[[noreturn]] void fatal(const char *what, const std::string &msg)
{
    fprintf(stderr, "train: cuDNN attention %s: %s\n", what, msg.c_str());
    exit(5); /* EXIT_INTERNAL: the device state is unknown */
}

/* q, k, v of qkv [B, T, 3, NH, hs] as [B, NH, T, hs] views; out and dout [B, T, NH, hs]. */
std::vector<int64_t> qkv_stride(int T, int NH, int hs)
{
    return {(int64_t)3 * NH * hs * T, hs, (int64_t)3 * NH * hs, 1};
}
std::vector<int64_t> out_stride(int T, int NH, int hs) { return {(int64_t)NH * hs * T, hs, (int64_t)NH * hs, 1}; }

std::shared_ptr<fe::graph::Tensor_attributes> tensor(fe::graph::Graph &g, const char *name, Uid uid, int B, int NH,
                                                     int T, int hs, std::vector<int64_t> stride)
{
    return g.tensor(fe::graph::Tensor_attributes().set_name(name).set_uid(uid).set_dim({B, NH, T, hs}).set_stride(
        stride));
}

std::string build(std::shared_ptr<fe::graph::Graph> &out, int dtype, int B, int T, int NH, int hs, int kind)
{
    state &st = S();
    if (!st.h && cudnnCreate(&st.h) != CUDNN_STATUS_SUCCESS)
        return "cudnnCreate failed (is libcudnn usable with this driver?)";
    auto g = std::make_shared<fe::graph::Graph>();
    g->set_io_data_type(dtype == CUDNN_ATT_FP16 ? fe::DataType_t::HALF : fe::DataType_t::BFLOAT16)
        .set_intermediate_data_type(fe::DataType_t::FLOAT)
        .set_compute_data_type(fe::DataType_t::FLOAT);
    auto q = tensor(*g, "q", U_Q, B, NH, T, hs, qkv_stride(T, NH, hs));
    auto k = tensor(*g, "k", U_K, B, NH, T, hs, qkv_stride(T, NH, hs));
    auto v = tensor(*g, "v", U_V, B, NH, T, hs, qkv_stride(T, NH, hs));
    auto scale = g->tensor(fe::graph::Tensor_attributes()
                               .set_name("scale")
                               .set_uid(U_SCALE)
                               .set_dim({1, 1, 1, 1})
                               .set_stride({1, 1, 1, 1})
                               .set_is_pass_by_value(true)
                               .set_data_type(fe::DataType_t::FLOAT));
    if (kind != K_BWD) {
        auto opt = fe::graph::SDPA_attributes()
                       .set_name("attention")
                       .set_generate_stats(kind == K_FWD)
                       .set_causal_mask(true)
                       .set_attn_scale(scale);
        auto [o, stats] = g->sdpa(q, k, v, opt);
        o->set_output(true).set_uid(U_O).set_dim({B, NH, T, hs}).set_stride(out_stride(T, NH, hs));
        if (kind == K_FWD)
            stats->set_output(true)
                .set_uid(U_LSE)
                .set_data_type(fe::DataType_t::FLOAT)
                .set_dim({B, NH, T, 1})
                .set_stride({(int64_t)NH * T, T, 1, 1});
    } else {
        auto o = tensor(*g, "o", U_O, B, NH, T, hs, out_stride(T, NH, hs));
        auto dout = tensor(*g, "do", U_DO, B, NH, T, hs, out_stride(T, NH, hs));
        auto stats = g->tensor(fe::graph::Tensor_attributes()
                                   .set_name("lse")
                                   .set_uid(U_LSE)
                                   .set_dim({B, NH, T, 1})
                                   .set_stride({(int64_t)NH * T, T, 1, 1})
                                   .set_data_type(fe::DataType_t::FLOAT));
        auto opt = fe::graph::SDPA_backward_attributes()
                       .set_name("attention_backward")
                       .set_causal_mask(true)
                       .set_deterministic_algorithm(true)
                       .set_attn_scale(scale);
        auto [dq, dk, dv] = g->sdpa_backward(q, k, v, o, dout, stats, opt);
        dq->set_output(true).set_uid(U_DQ).set_dim({B, NH, T, hs}).set_stride(qkv_stride(T, NH, hs));
        dk->set_output(true).set_uid(U_DK).set_dim({B, NH, T, hs}).set_stride(qkv_stride(T, NH, hs));
        dv->set_output(true).set_uid(U_DV).set_dim({B, NH, T, hs}).set_stride(qkv_stride(T, NH, hs));
    }
    fe::error_t e;
    if ((e = g->validate()).is_bad() || (e = g->build_operation_graph(st.h)).is_bad() ||
        (e = g->create_execution_plans({fe::HeurMode_t::A})).is_bad() || (e = g->check_support(st.h)).is_bad() ||
        (e = g->build_plans(st.h)).is_bad())
        return e.get_message().empty() ? std::string("not supported") : e.get_message();
    int64_t need = 0;
    if ((e = g->get_workspace_size(need)).is_bad())
        return e.get_message();
    if (need > st.ws_size) {
        void *w = nullptr;
        if (cudaMalloc(&w, (size_t)need) != cudaSuccess) {
            cudaGetLastError();
            return "out of GPU memory for the attention workspace (" + std::to_string(need) + " bytes)";
        }
        if (st.ws)
            cudaFree(st.ws);
        st.ws = w;
        st.ws_size = need;
    }
    out = g;
    return "";
}

std::shared_ptr<fe::graph::Graph> graph(int dtype, int B, int T, int NH, int hs, int kind, std::string *why)
{
    state &st = S();
    std::lock_guard<std::mutex> lock(st.mu);
    key_t_ key(dtype, B, T, NH, hs, kind);
    auto it = st.graphs.find(key);
    if (it != st.graphs.end())
        return it->second;
    std::shared_ptr<fe::graph::Graph> g;
    std::string err = build(g, dtype, B, T, NH, hs, kind);
    if (!err.empty()) {
        if (why)
            *why = err;
        return nullptr;
    }
    st.graphs[key] = g;
    return g;
}

void run(std::shared_ptr<fe::graph::Graph> &g, std::unordered_map<int64_t, void *> &pack, void *stream)
{
    state &st = S();
    if (cudnnSetStream(st.h, (cudaStream_t)stream) != CUDNN_STATUS_SUCCESS)
        fatal("cudnnSetStream", "failed");
    fe::error_t e = g->execute(st.h, pack, st.ws);
    if (e.is_bad())
        fatal("execute", e.get_message());
}

} // namespace

extern "C" int cudnn_attention_prepare(int dtype, int B, int T, int NH, int hs, char *why, size_t n)
{
    std::string err;
    if (cudnnGetVersion() < 90000)
        err = "needs cuDNN 9 (found " + std::to_string(cudnnGetVersion()) + ")";
    else if (hs % 8 || hs > 256)
        err = "head size " + std::to_string(hs) + " (cuDNN needs a multiple of 8, at most 256)";
    else if (!graph(dtype, B, T, NH, hs, K_FWD, &err) || !graph(dtype, B, T, NH, hs, K_BWD, &err))
        err = "cuDNN: " + err;
    if (err.empty())
        return 0;
    if (why && n)
        snprintf(why, n, "%s", err.c_str());
    return -1;
}

extern "C" void cudnn_attention_forward(int dtype, void *out, float *lse, const void *qkv, int B, int T, int NH, int hs,
                                        void *stream)
{
    std::string why;
    auto g = graph(dtype, B, T, NH, hs, lse ? K_FWD : K_FWD_INFER, &why);
    if (!g)
        fatal("forward", why);
    size_t es = 2, C = (size_t)NH * hs;
    float scale = 1.0f / sqrtf((float)hs);
    char *p = (char *)qkv;
    std::unordered_map<int64_t, void *> pack = {
        {U_Q, p}, {U_K, p + C * es}, {U_V, p + 2 * C * es}, {U_O, out}, {U_SCALE, &scale}};
    if (lse)
        pack[U_LSE] = lse;
    run(g, pack, stream);
}

extern "C" void cudnn_attention_backward(int dtype, void *dqkv, const void *dout, const void *qkv, const void *out,
                                         const float *lse, int B, int T, int NH, int hs, void *stream)
{
    std::string why;
    auto g = graph(dtype, B, T, NH, hs, K_BWD, &why);
    if (!g)
        fatal("backward", why);
    size_t es = 2, C = (size_t)NH * hs;
    float scale = 1.0f / sqrtf((float)hs);
    char *p = (char *)qkv, *d = (char *)dqkv;
    std::unordered_map<int64_t, void *> pack = {
        {U_Q, p},        {U_K, p + C * es},        {U_V, p + 2 * C * es},     {U_O, (void *)out},
        {U_DO, (void *)dout}, {U_LSE, (void *)lse}, {U_DQ, d}, {U_DK, d + C * es}, {U_DV, d + 2 * C * es},
        {U_SCALE, &scale}};
    run(g, pack, stream);
}

extern "C" size_t cudnn_attention_workspace(void) { return (size_t)S().ws_size; }

extern "C" long cudnn_attention_version(void) { return (long)cudnnGetVersion(); }
