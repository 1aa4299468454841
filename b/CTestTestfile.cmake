# CMake generated Testfile for 
# Source directory: /tmp/wt4
# Build directory: /tmp/wt4/b
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
subdirs("core")
subdirs("app")
subdirs("tests")
subdirs("bench")
