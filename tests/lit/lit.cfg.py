# lit configuration of pocl-iss's pass tests: pocl-iss-opt from the build
# tree, FileCheck, not and count from LLVM 19.
import os
import lit.formats

config.name = "pocl-iss"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".ll"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.pocl_iss_bin_dir, "..", "tests", "lit")
config.excludes = ["lit.cfg.py", "lit.site.cfg.py.in", "CMakeLists.txt"]
path = os.pathsep.join([config.pocl_iss_bin_dir, config.llvm_tools_dir,
                        config.environment.get("PATH", "")])
config.environment["PATH"] = path
