# Greets the judge, which is not a query or a command.
print("Hello judge, how are you?")
input()
