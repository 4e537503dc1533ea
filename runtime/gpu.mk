# GPU target (configure --with-cuda or --with-hip): the GPU runtime in the
# library, the headers GPU translation units include, and the GPU tests,
# examples and benchmarks (built with nvcc/hipcc by tests/gpu/run.sh).
shoalinc_HEADERS += include/shoal/gpu_pre.h include/shoal/gpu.h include/shoal/gpu_x.h
shoaldev_HEADERS += device/gpu_image.h device/state_gpu.h device/remote_gpu.h
EXTRA_DIST += runtime/gpu_cuda.c runtime/gpu_hip.c runtime/gpu_runtime.c runtime/gpu.h \
	tests/gpu/run.sh tests/gpu/ci.sh tests/gpu/gpu_test.h tests/gpu/test_device.cu \
	tests/gpu/test_coll.cu tests/gpu/mtu_main.cu tests/gpu/mtu_a.cu tests/gpu/mtu_b.cu \
	tests/gpu/mtu_lib.cu tests/gpu/mtu_dl.cu examples/gpu/ring_put_signal.cu \
	examples/gpu/fused_allreduce.cu bench/gpu/bench_p2p.cu bench/gpu/bench_coll.cu \
	bench/gpu/report.py bench/gpu/results-h200x2.csv
if HAVE_CUDA
libshoal_la_SOURCES += runtime/gpu.h runtime/gpu_runtime.c runtime/gpu_cuda.c
libshoal_la_CPPFLAGS += $(CUDA_CPPFLAGS)
libshoal_la_LIBADD += $(CUDA_LIBS)
endif
if HAVE_HIP
libshoal_la_SOURCES += runtime/gpu.h runtime/gpu_runtime.c runtime/gpu_hip.c
libshoal_la_CPPFLAGS += $(HIP_CPPFLAGS)
libshoal_la_LIBADD += $(HIP_LIBS)
endif

# 'make gpu-build' compiles every GPU test, example and benchmark (no GPU
# needed: CI runs it); 'make gpu-check' also runs them on this machine's GPUs.
.PHONY: gpu-build gpu-check
gpu-build: libshoal.la
	SHOAL_NVCC="$(NVCC)" SHOAL_HIPCC="$(HIPCC)" SHOAL_GPU_ARCH="$(SHOAL_GPU_ARCH)" \
	  $(top_srcdir)/tests/gpu/run.sh --build-only $(abs_top_builddir)
gpu-check: libshoal.la
	SHOAL_NVCC="$(NVCC)" SHOAL_HIPCC="$(HIPCC)" SHOAL_GPU_ARCH="$(SHOAL_GPU_ARCH)" \
	  $(top_srcdir)/tests/gpu/run.sh $(abs_top_builddir)
