# tools/: oshcc, oshc++ (the same script: it reads its name), oshrun, shoal-info, pkg-config and CMake files.  The scripts
# are filled in at make time (tools/subst.sh) so they carry the install paths.
EXTRA_DIST += tools/install-deps.sh tools/demo.sh tools/subst.sh tools/oshcc.in tools/oshrun.in \
	tools/shoal.pc.in tools/ShoalConfig.cmake.in tools/ShoalConfigVersion.cmake.in

bin_PROGRAMS += tools/shoal-info
tools_shoal_info_SOURCES = tools/shoal-info.c
tools_shoal_info_LDADD = libshoal.la
# Set unconditionally: a per-target variable defined only under a false
# condition is empty, and the program would lose AM_CPPFLAGS.
tools_shoal_info_CPPFLAGS = $(AM_CPPFLAGS)
if HAVE_PYTHON
tools_shoal_info_CPPFLAGS += -DSHOAL_PYTHONPATH='"$(shoalpythondir)"'
endif

bin_SCRIPTS += tools/oshcc tools/oshc++ tools/oshrun
pkgconfig_DATA = tools/shoal.pc
cmakedir = $(libdir)/cmake/Shoal
cmake_DATA = tools/ShoalConfig.cmake tools/ShoalConfigVersion.cmake
tools_generated = tools/oshcc tools/oshc++ tools/oshrun tools/shoal.pc tools/ShoalConfig.cmake \
	tools/ShoalConfigVersion.cmake
CLEANFILES += $(tools_generated)

# Static links of libshoal.a need these too (oshcc -static, Libs.private).
SHOAL_STATIC_LIBS = $(PMIX_LIBS) $(OFI_LIBS) $(LIBS)
# The GPU target the wrappers, shoal.pc and the CMake package describe.
if HAVE_CUDA
shoal_gpu = cuda
shoal_gpu_cc = $(NVCC)
shoal_gpu_libdir = $(CUDA_HOME)/lib64
else
if HAVE_HIP
shoal_gpu = hip
shoal_gpu_cc = $(HIPCC)
shoal_gpu_libdir = $(HIP_HOME)/lib
else
shoal_gpu = none
endif
endif
tools_subst = $(MKDIR_P) tools && SHOAL_SUBST_CXX='$(CXX)' SHOAL_SUBST_GPU='$(shoal_gpu)' \
	SHOAL_SUBST_GPU_CC='$(shoal_gpu_cc)' SHOAL_SUBST_GPU_ARCH='$(SHOAL_GPU_ARCH)' \
	SHOAL_SUBST_GPU_LIBDIR='$(shoal_gpu_libdir)' $(SHELL) $(top_srcdir)/tools/subst.sh
tools_subst_args = '$(prefix)' '$(includedir)' '$(libdir)' '$(pkgconfigdir)' '$(cmakedir)' \
	'$(CC)' '$(VERSION)' $(SHOAL_STATIC_LIBS)
tools_subst_deps = $(top_srcdir)/tools/subst.sh Makefile

tools/oshcc: $(top_srcdir)/tools/oshcc.in $(tools_subst_deps)
	$(AM_V_GEN)$(tools_subst) $(top_srcdir)/tools/oshcc.in $@ $(tools_subst_args) && chmod +x $@
tools/oshc++: $(top_srcdir)/tools/oshcc.in $(tools_subst_deps)
	$(AM_V_GEN)$(tools_subst) $(top_srcdir)/tools/oshcc.in $@ $(tools_subst_args) && chmod +x $@
tools/oshrun: $(top_srcdir)/tools/oshrun.in $(tools_subst_deps)
	$(AM_V_GEN)$(tools_subst) $(top_srcdir)/tools/oshrun.in $@ $(tools_subst_args) && chmod +x $@
tools/shoal.pc: $(top_srcdir)/tools/shoal.pc.in $(tools_subst_deps)
	$(AM_V_GEN)$(tools_subst) $(top_srcdir)/tools/shoal.pc.in $@ $(tools_subst_args)
tools/ShoalConfig.cmake: $(top_srcdir)/tools/ShoalConfig.cmake.in $(tools_subst_deps)
	$(AM_V_GEN)$(tools_subst) $(top_srcdir)/tools/ShoalConfig.cmake.in $@ $(tools_subst_args)
tools/ShoalConfigVersion.cmake: $(top_srcdir)/tools/ShoalConfigVersion.cmake.in $(tools_subst_deps)
	$(AM_V_GEN)$(tools_subst) $(top_srcdir)/tools/ShoalConfigVersion.cmake.in $@ $(tools_subst_args)
