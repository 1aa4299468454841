# The sandbox app target is added in the next commit.
