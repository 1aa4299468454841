# CMake generated Testfile for 
# Source directory: /tmp/wt4/bench
# Build directory: /tmp/wt4/b/bench
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
