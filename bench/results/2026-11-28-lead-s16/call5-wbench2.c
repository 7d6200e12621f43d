/* write probe 2: L files at once, each by one thread, from a large source (realistic memory traffic) */
#define _GNU_SOURCE
#include <fcntl.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
int main(int argc,char**argv){
  const char*dir=argv[1]; size_t B=(size_t)atoll(argv[2]); size_t CH=(size_t)atoll(argv[3]);
  size_t SRC=(size_t)256<<20; char*src=malloc(SRC); memset(src,'7',SRC);
  int Ls[]={1,2,4,8,16};
  for(int li=0;li<5;li++){ int L=Ls[li];
    double t=now();
    #pragma omp parallel num_threads(L)
    { char q[512]; int id=omp_get_thread_num(); snprintf(q,sizeof q,"%s/w%d",dir,id); int f=open(q,O_WRONLY|O_CREAT|O_TRUNC,0644);
      size_t off=(size_t)id*(SRC/16);
      for(size_t o=0;o<B/L;o+=CH){ if(write(f,src+((off+o)%(SRC-CH)),CH)!=(ssize_t)CH) abort(); } close(f);}
    double t1=now();
    for(int i=0;i<L;i++){char q[512];snprintf(q,sizeof q,"%s/w%d",dir,i);unlink(q);}
    printf("L=%d chunk=%zu total=%zu: %.1f ms (%.2f GB/s); unlink %.1f ms\n",L,CH,B,(t1-t)*1e3,B/(t1-t)/1e9,(now()-t1)*1e3);
  }
  return 0;}
