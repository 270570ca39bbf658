import LifelineCore
print(LifelineVersion.current)
