# device/: header-only per-operation code, installed for GPU kernels.
shoaldevdir = $(includedir)/shoal/device
shoaldev_HEADERS = device/arch.h device/arch_gpu.h device/state.h device/remote.h \
	device/rma.h device/amo.h device/wait.h device/signal.h device/proxy_queue.h
