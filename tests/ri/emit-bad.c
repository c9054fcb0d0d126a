int g(int x)
{
    int y = x;
    #pragma perfinst emit(nosuch + 1)
    y++;
    #pragma perfinst emit(y.field)
    return y;
}
