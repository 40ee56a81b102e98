import LinkwrightCLI

LinkwrightCLI.main()
