R=$PWD/.mpirt
export OPAL_PREFIX=$R/usr PMIX_INSTALL_PREFIX=$R/usr/lib/x86_64-linux-gnu/pmix2
export PATH=$R/usr/bin:$PATH LD_LIBRARY_PATH=$R/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader OMPI_MCA_mtl=^ofi,psm,psm2 OMPI_MCA_osc=^ucx OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export PMIX_MCA_mca_base_component_path=$R/usr/lib/x86_64-linux-gnu/pmix2/lib/pmix
