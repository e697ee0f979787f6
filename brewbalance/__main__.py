from brewbalance.cli import main

main()
