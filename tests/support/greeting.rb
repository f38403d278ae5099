# Prints what the launch put in its environment, then exits with 7.
puts ENV.fetch('GREETING')
exit 7
